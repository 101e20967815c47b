/// The rate a load changes at, in grams per second: the least-squares slope of the weight over
/// the last ``window`` of time (grain poured in, a bowl emptied, a hive losing weight).
///
/// The window is a time, not a sample count, as every window of the engine is, so the same
/// setting means the same at 10 SPS and 80 SPS. The slope is over every sample in the window,
/// which averages the noise down far more than a difference of two readings would: at 0.03 g
/// rms, about 0.01 g/s at 80 SPS and 0.03 g/s at 10 SPS over 1 s.
///
/// There is no rate until the samples span a whole window (and number at least
/// ``minimumSamples``). A missing value (no valid reading), time going backwards or a gap longer
/// than the window starts it again, since the samples before it say nothing about now; so does
/// ``reset()``, which the engine calls when a zero or tare changes what the weight means.
public struct FlowRate: Sendable {
    /// Nanoseconds of samples the slope is fitted over.
    public let window: UInt64
    /// The fewest samples a slope is given for, however long they span (a line through two
    /// points follows their noise).
    public let minimumSamples: Int
    private var samples: TimeWindow

    /// 1 s: long enough that noise averages down to a few hundredths of a gram per second, short
    /// enough that pouring shows within a second.
    public static let defaultWindow: UInt64 = 1_000_000_000

    /// - Parameters:
    ///   - window: nanoseconds of samples to fit over (at least 1 ms).
    ///   - minimumSamples: the fewest samples a rate is given for (at least 3).
    public init(window: UInt64 = FlowRate.defaultWindow, minimumSamples: Int = 3) {
        self.window = max(window, 1_000_000)
        self.minimumSamples = max(minimumSamples, 3)
        samples = TimeWindow(window: self.window)
    }

    /// Forgets every sample: the next rate comes a whole window later.
    public mutating func reset() {
        samples.reset()
    }

    /// Adds a sample and returns the rate now.
    /// - Parameters:
    ///   - grams: the weight, or nil when the reading is not valid (which starts over).
    ///   - time: monotonic nanoseconds of the sample.
    /// - Returns: grams per second, or nil until the samples span a window.
    public mutating func update(_ grams: Double?, time: UInt64) -> Double? {
        guard let grams, grams.isFinite else {
            reset()
            return nil
        }
        samples.append(grams, at: time)
        guard samples.isFull, samples.indices.count >= minimumSamples else { return nil }
        return samples.slope()
    }
}
