public import PlumHardware

/// A load that jumps once from one weight to another: for tests and benchmarks of settling.
public struct StepLoad: LoadProfile, Hashable, Sendable {
    public var before: Double
    public var after: Double
    public var stepTime: MonotonicInstant

    public init(before: Double = 0, after: Double, at stepTime: MonotonicInstant) {
        self.before = before
        self.after = after
        self.stepTime = stepTime
    }

    public func grams(at time: MonotonicInstant) -> Double { time < stepTime ? before : after }
}
