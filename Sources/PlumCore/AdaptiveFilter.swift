#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// An averaging filter that is calm on a steady load and jumps at once to a new one.
///
/// While the load is steady it averages: first the plain mean of every sample since the last
/// restart (so noise falls as 1/√n from the first sample on), then an exponential average with
/// time constant τ. It restarts at the new sample on a jump larger than the step threshold,
/// the "fast step" of commercial weighing indicators, so a new plum shows its weight on the
/// next sample instead of after the averaging time.
///
/// **Small steps.** A load change smaller than the step threshold used to be left to the
/// exponential average, and a display that creeps 1 d at a time looks still to a short
/// stability window. A two-sided CUSUM (Page, 1954) on the samples' deviation from the
/// average catches such a change: it adds up each deviation beyond half the shift it is
/// looking for (``shift``/2) and restarts the average once the sum passes the whole shift.
/// A sustained change of 1.5 shifts is caught on its first sample, one of 1 shift on its
/// second; noise well inside half a shift adds nothing. ``isSettling`` says the sum is past
/// half the shift: a change may be under way that the average has not followed yet.
///
/// **Time, not samples.** Each sample's weight is `max(1/n, 1 − e^(−Δt/τ))`, with n the
/// samples since the last restart and Δt the time since the previous sample, so the filter
/// follows in the same time at 10 SPS as at 80 SPS. (Counted in samples, 16 samples are 0.2 s
/// at 80 SPS but 1.6 s at 10 SPS.)
///
/// The filter is unit-agnostic; the engine feeds it grams. A benchmark can drive it sample by
/// sample.
public struct AdaptiveFilter: Sendable {
    /// The exponential average's time constant τ in nanoseconds.
    public let timeConstant: UInt64
    private var average = 0.0
    private var lastTime: UInt64?
    private var riseSum = 0.0
    private var fallSum = 0.0
    private var shift = Double.infinity
    /// Samples averaged since the last restart.
    public private(set) var depth = 0
    /// Restarts caused by a step or a sustained shift since creation, for diagnostics.
    public private(set) var stepCount = 0

    /// - Parameter timeConstant: τ in nanoseconds (200 ms by default in ``FilterTuning``).
    public init(timeConstant: UInt64) {
        self.timeConstant = max(1, timeConstant)
    }

    /// The CUSUM has gathered more than half a shift: the load may be moving to a new level
    /// the average has not reached.
    public var isSettling: Bool { max(riseSum, fallSum) > shift / 2 }

    /// Forgets the history.
    public mutating func reset() {
        depth = 0
        lastTime = nil
        riseSum = 0
        fallSum = 0
    }

    /// Filters one sample.
    ///
    /// - Parameters:
    ///   - time: the sample's monotonic time in nanoseconds.
    ///   - stepThreshold: a deviation from the average larger than this restarts the average
    ///     at once (same unit as `x`).
    ///   - shift: the smallest sustained change to catch and restart on (the engine: 1 d).
    ///     Infinity turns the CUSUM off.
    /// - Returns: the filtered value.
    public mutating func process(_ x: Double, time: UInt64, stepThreshold: Double, shift: Double = .infinity) -> Double
    {
        defer { lastTime = time }
        self.shift = shift
        if depth == 0 || !(abs(x - average) <= stepThreshold) {
            restart(at: x)
            return average
        }
        let deviation = x - average
        riseSum = max(0, riseSum + deviation - shift / 2)
        fallSum = max(0, fallSum - deviation - shift / 2)
        if riseSum > shift || fallSum > shift {
            restart(at: x)
            return average
        }
        depth += 1
        // Time going backwards or standing still earns no exponential weight: the plain mean.
        let elapsed = lastTime.map { time > $0 ? Double(time - $0) : 0 } ?? 0
        let exponential = 1 - exp(-elapsed / Double(timeConstant))
        average += deviation * max(1 / Double(depth), exponential)
        return average
    }

    private mutating func restart(at x: Double) {
        if depth > 0 { stepCount += 1 }
        average = x
        depth = 1
        riseSum = 0
        fallSum = 0
    }
}
