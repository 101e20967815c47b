/// Motion detection: stable when the spread of the readings over a time window stays within a
/// band.
///
/// The window is in time rather than samples, so the same setting means the same thing at
/// 10 SPS and 80 SPS. The detector reports stable only once it has seen a full window, and it
/// restarts when time jumps backwards or a gap longer than the window appears (stale data
/// cannot vouch for now).
public struct StabilityDetector: Sendable {
    public let window: UInt64
    /// The largest max − min that still counts as stable; the engine sets it per sample before
    /// calibration, when it is measured from the noise.
    public var band: Double
    private var samples: TimeWindow

    /// - Parameters:
    ///   - window: nanoseconds the readings must stay within the band.
    ///   - band: the largest max − min that still counts as stable.
    public init(window: UInt64, band: Double) {
        self.window = window
        self.band = band
        samples = TimeWindow(window: window)
    }

    public mutating func reset() {
        samples.reset()
    }

    /// Adds a reading and says whether the load is stable now.
    public mutating func update(_ value: Double, time: UInt64) -> Bool {
        guard value.isFinite else {
            samples.reset()
            return false
        }
        samples.append(value, at: time)
        guard samples.isFull else { return false }
        var low = value
        var high = value
        for index in samples.indices {
            low = min(low, samples.values[index])
            high = max(high, samples.values[index])
        }
        return high - low <= band
    }
}
