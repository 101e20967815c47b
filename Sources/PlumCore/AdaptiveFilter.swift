/// An averaging filter that is calm on a steady load and jumps at once to a new one.
///
/// While the load is steady it averages: first the plain mean of every sample since the last
/// step (so noise falls as 1/√n from the first sample on), then, once `averagingSamples` have
/// arrived, an exponential average with α = 1/`averagingSamples`. A sample further than the
/// step threshold from the average restarts it at that sample: the "fast step" of commercial
/// weighing indicators. A new plum shows its weight on the next sample instead of after the
/// averaging time, and the display settles as the average refills.
///
/// The filter is unit-agnostic; the engine feeds it grams. A benchmark can drive it sample by
/// sample.
public struct AdaptiveFilter: Sendable {
    /// Most samples the average spans.
    public let averagingSamples: Int
    private var average = 0.0
    /// Samples averaged since the last restart.
    public private(set) var depth = 0
    /// Restarts caused by a step since creation, for diagnostics.
    public private(set) var stepCount = 0

    public init(averagingSamples: Int) {
        self.averagingSamples = max(1, averagingSamples)
    }

    /// Forgets the history.
    public mutating func reset() {
        depth = 0
    }

    /// Filters one sample.
    ///
    /// - Parameter stepThreshold: a deviation from the average larger than this restarts the
    ///   average (same unit as `x`).
    /// - Returns: the filtered value.
    public mutating func process(_ x: Double, stepThreshold: Double) -> Double {
        if depth == 0 || !(abs(x - average) <= stepThreshold) {
            if depth > 0 { stepCount += 1 }
            average = x
            depth = 1
            return average
        }
        depth = min(depth + 1, averagingSamples)
        average += (x - average) / Double(depth)
        return average
    }
}
