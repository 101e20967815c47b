/// A causal Hampel filter: a sample far from the median of the last few is replaced by that
/// median.
///
/// A single glitch (a bit slip on the HX711's serial line, a knock on the bench) never reaches
/// the average. A real step passes once half the window has moved to the new level, so the
/// window is set by how long a change may be held back as a possible spike (the hold time),
/// not by a count: `2·h + 1` samples with h = hold ÷ sample interval, at least 1. With the
/// default 25 ms hold that is 5 samples at 80 SPS (a step held for 2 samples, 25 ms) and 3 at
/// 10 SPS (held for 1 sample, the least a spike test can cost). The interval is the median of
/// the last few intervals between samples, so a dropped conversion does not change the window.
public struct SpikeFilter: Sendable {
    /// The largest window, in samples.
    public static let maximumWindow = 31

    /// How long a sudden change may be held back, in nanoseconds.
    public let holdTime: UInt64
    private let threshold: Double
    private var ring: [Double]
    private var scratch: [Double]
    private var next = 0
    private var count = 0
    private var intervals = [UInt64](repeating: 0, count: 9)
    private var sortedIntervals = [UInt64](repeating: 0, count: 9)
    private var intervalCount = 0
    private var lastTime: UInt64?
    /// The samples the median is taken over now.
    public private(set) var window = 3

    /// - Parameters:
    ///   - holdTime: nanoseconds a sudden change may be held back; 0 switches the filter off.
    ///   - threshold: how many scaled median absolute deviations make a spike.
    public init(holdTime: UInt64, threshold: Double) {
        self.holdTime = holdTime
        self.threshold = threshold
        ring = Array(repeating: 0, count: Self.maximumWindow)
        scratch = Array(repeating: 0, count: Self.maximumWindow)
        window = holdTime == 0 ? 1 : 3
    }

    /// Forgets the samples, for example after a calibration change; the sample interval stays.
    public mutating func reset() {
        next = 0
        count = 0
    }

    /// Returns `x`, or the window's median when `x` is a spike.
    ///
    /// - Parameters:
    ///   - time: the sample's monotonic time in nanoseconds.
    ///   - floor: deviations up to this size are never spikes (same unit as `x`).
    public mutating func process(_ x: Double, time: UInt64, floor: Double) -> Double {
        observeInterval(time)
        ring[next] = x
        next = (next + 1) % ring.count
        count = min(count + 1, ring.count)
        let size = min(count, window)
        guard size >= 3 else { return x }
        let median = medianOfLast(size) { $0 }
        // 1.4826 × MAD estimates the standard deviation of Gaussian noise.
        let spread = 1.4826 * medianOfLast(size) { abs($0 - median) }
        let limit = max(threshold * spread, floor)
        return abs(x - median) > limit ? median : x
    }

    private mutating func observeInterval(_ time: UInt64) {
        defer { lastTime = time }
        guard holdTime > 0, let last = lastTime, time > last else { return }
        intervals[intervalCount % intervals.count] = time - last
        intervalCount += 1
        let known = min(intervalCount, intervals.count)
        for i in 0..<known { sortedIntervals[i] = intervals[i] }
        sortedIntervals[0..<known].sort()
        let interval = sortedIntervals[known / 2]
        // Round half up: a hold of exactly two intervals holds two samples.
        let held = max(1, (holdTime + interval / 2) / interval)
        window = Int(min(UInt64(Self.maximumWindow), 2 * held + 1))
    }

    private mutating func medianOfLast(_ size: Int, _ transform: (Double) -> Double) -> Double {
        for i in 0..<size { scratch[i] = transform(ring[(next - 1 - i + ring.count) % ring.count]) }
        scratch[0..<size].sort()
        let middle = size / 2
        return size % 2 == 1 ? scratch[middle] : (scratch[middle - 1] + scratch[middle]) / 2
    }
}
