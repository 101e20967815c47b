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
    private var times: [UInt64] = []
    private var values: [Double] = []
    private var head = 0
    private var coveredSince: UInt64?
    private var lastTime: UInt64?

    /// - Parameters:
    ///   - window: nanoseconds the readings must stay within the band.
    ///   - band: the largest max − min that still counts as stable.
    public init(window: UInt64, band: Double) {
        self.window = window
        self.band = band
    }

    public mutating func reset() {
        times.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        head = 0
        coveredSince = nil
        lastTime = nil
    }

    /// Adds a reading and says whether the load is stable now.
    public mutating func update(_ value: Double, time: UInt64) -> Bool {
        if let last = lastTime, time < last || time - last > window || !value.isFinite {
            reset()
        }
        guard value.isFinite else { return false }
        lastTime = time
        if coveredSince == nil { coveredSince = time }
        times.append(time)
        values.append(value)
        let start = time >= window ? time - window : 0
        while head < times.count - 1, times[head] < start { head += 1 }
        // Compact now and then so the arrays stay as small as the window.
        if head > 256 {
            times.removeFirst(head)
            values.removeFirst(head)
            head = 0
        }
        var low = value
        var high = value
        for i in head..<values.count {
            low = min(low, values[i])
            high = max(high, values[i])
        }
        guard let since = coveredSince, time - since >= window else { return false }
        return high - low <= band
    }
}
