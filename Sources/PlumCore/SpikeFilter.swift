/// A causal Hampel filter: a sample far from the median of the last few is replaced by that
/// median.
///
/// A single glitch (a bit slip on the HX711's serial line, a knock on the bench) never reaches
/// the average. A real step passes after half the window has moved to the new level: two
/// samples (25 ms at 80 SPS) with the default window of 5.
public struct SpikeFilter: Sendable {
    private var window: [Double]
    private var scratch: [Double]
    private var next = 0
    private var count = 0
    private let threshold: Double

    /// - Parameters:
    ///   - window: samples considered (1 switches the filter off).
    ///   - threshold: how many scaled median absolute deviations make a spike.
    public init(window: Int, threshold: Double) {
        let size = max(1, window)
        self.window = Array(repeating: 0, count: size)
        self.scratch = Array(repeating: 0, count: size)
        self.threshold = threshold
    }

    /// Forgets the history, for example after a calibration change.
    public mutating func reset() {
        next = 0
        count = 0
    }

    /// Returns `x`, or the window's median when `x` is a spike.
    ///
    /// - Parameter floor: deviations up to this size are never spikes (same unit as `x`).
    public mutating func process(_ x: Double, floor: Double) -> Double {
        window[next] = x
        next = (next + 1) % window.count
        count = min(count + 1, window.count)
        guard count >= 3 else { return x }
        let median = medianOfWindow { $0 }
        // 1.4826 × MAD estimates the standard deviation of Gaussian noise.
        let spread = 1.4826 * medianOfWindow { abs($0 - median) }
        let limit = max(threshold * spread, floor)
        return abs(x - median) > limit ? median : x
    }

    private mutating func medianOfWindow(_ transform: (Double) -> Double) -> Double {
        for i in 0..<count { scratch[i] = transform(window[i]) }
        scratch[0..<count].sort()
        let middle = count / 2
        return count % 2 == 1 ? scratch[middle] : (scratch[middle - 1] + scratch[middle]) / 2
    }
}
