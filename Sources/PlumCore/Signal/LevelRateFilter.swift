/// One estimator of the load: a two-state Kalman filter of its level and rate, with a rule for
/// jumps, under trial beside the spike stage, the adaptive filter and the slope test
/// (``FilterTuning/Estimator/levelRate``; docs/engine.md, "One estimator, on trial").
///
/// **Model.** The load is a level L that moves at a rate r (creep, a zero's drift); the rate
/// itself wanders as a random walk of ``Tuning/rateWalk`` (d/s)² per second. Each sample is
/// z = L + v, with v white noise of variance R = σ² + d²/12: σ the engine's measured noise of
/// one sample, d²/12 a division's quantisation, so a quantised signal with no measured noise
/// still has an honest floor. Between samples Δt apart:
///
///     L ← L + r Δt,   P ← F P Fᵀ + Q,   F = [1 Δt; 0 1],   Q = q [Δt³/3 Δt²/2; Δt²/2 Δt]
///
/// and a sample updates them with the gain K = P Hᵀ / S, S = P₀₀ + R, H = [1 0].
///
/// **Outliers.** A sample whose innovation ν = z − L is more than k √S away is held back and
/// changes nothing (k = ``Tuning/outlierLimit``). Held samples the signal comes back from were a
/// knock or a spike, and are dropped.
///
/// **Jumps.** When ``Tuning/jumpSamples`` held samples in a row agree with one another (each
/// within k √(2R) of their mean), the load has moved: the filter restarts at their mean with
/// an uninformative level and the rate prior, so the level is the plain mean of the samples
/// since, as the adaptive filter's was. Held samples that never agree (a pan ringing) restart
/// it at the mean of the latest ones once ``Tuning/longestHold`` has passed.
///
/// **Slow changes.** A change below k √S moves the level only by its gain; a two-sided CUSUM of
/// the normalised innovations ν/√S (allowance ½, decision interval 8) catches it, and the
/// level restarts at the mean of the samples the sum gathered, keeping the rate.
///
/// **Stable** is for the engine to judge with ``isSettled(division:slopeLimit:)``: nothing
/// held, √P₀₀ ≤ ¼ d, and |r| plus two standard errors within the slope limit (0.5 d/s).
public struct LevelRateFilter: Sendable {
    /// The constants, each with its reason.
    public struct Tuning: Hashable, Sendable {
        /// Standard deviations of the innovation past which a sample is held (3.5: noise alone
        /// holds 1 sample in 2 000).
        public var outlierLimit = 3.5
        /// Agreeing held samples that make a jump (2: one sample is a spike, two in a row that
        /// agree are a new load).
        public var jumpSamples = 2
        /// How long held samples that disagree may keep the filter where it was (150 ms: a
        /// plum's ringing dies in about 100 ms).
        public var longestHold: UInt64 = 150_000_000
        /// The rate's random walk, in (d/s)² per second: how fast creep may start or change.
        /// 0.004: the rate follows a new creep within about a second at datasheet noise, and its
        /// standard error at rest stays near 0.05 d/s, far inside the 0.5 d/s rule (at 0.04 it
        /// was 0.15 d/s, and a resting load at 1 d of noise was stable only half the time).
        public var rateWalk = 0.004
        /// The rate's prior after a jump, in d/s: a new load is at rest until the samples say
        /// otherwise, give or take this. 0.1: two of it leave 0.3 d/s for the estimate itself
        /// under the 0.5 d/s rule, so a new load is judged at once (at 0.2 the first stable came
        /// 1.4 s after a step at 80 SPS).
        public var ratePrior = 0.1
        /// The fastest rate, in d/s, a jump keeps (20: six times the 3.3 d/s that the display's
        /// band of 1 d over 300 ms catches by itself, so every creep the band lets through keeps
        /// its rate over a jump; far below a hand pouring. At 5, a creep of 5 d/s at 10 SPS
        /// whose estimate drew past the limit lost its rate and was called stable.)
        public var creepLimit = 20.0
        /// The CUSUM's allowance and decision interval, in standard deviations.
        public var cusumAllowance = 0.5
        public var cusumLimit = 8.0
        public init() {}
    }

    public let tuning: Tuning
    /// The estimated level, nil before the first sample.
    public private(set) var level: Double?
    /// The estimated rate per second.
    public private(set) var rate = 0.0
    private var p00 = 0.0
    private var p01 = 0.0
    private var p11 = 0.0
    private var lastTime: UInt64?
    private var held: [Double] = []
    private var heldSince: UInt64?
    private var rise = Sum()
    private var fall = Sum()
    /// Restarts so far: a jump, a held run given up, or the CUSUM.
    public private(set) var restarts = 0

    /// The CUSUM's sum and the samples it gathered since it last stood at zero.
    private struct Sum {
        var value = 0.0
        var total = 0.0
        var count = 0
        mutating func add(_ step: Double, sample: Double) {
            if value + step <= 0 {
                self = Sum()
            } else {
                value += step
                total += sample
                count += 1
            }
        }
    }

    public init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
    }

    /// The level's standard deviation.
    public var levelDeviation: Double { p00.squareRoot() }
    /// The rate's standard deviation, per second.
    public var rateDeviation: Double { p11.squareRoot() }
    /// Whether the latest sample was held back.
    public var isHolding: Bool { !held.isEmpty }

    public mutating func reset() {
        self = LevelRateFilter(tuning: tuning)
    }

    /// Whether the estimate is one to call stable: nothing held, the level known to ¼ d, and
    /// the rate within `slopeLimit` (per second) by two of its standard errors.
    public func isSettled(division: Double, slopeLimit: Double) -> Bool {
        held.isEmpty && level != nil && p00.squareRoot() <= 0.25 * division
            && abs(rate) + 2 * p11.squareRoot() <= slopeLimit
    }

    /// Takes one sample and returns the level.
    ///
    /// - Parameters:
    ///   - sample: the sample, in the unit of `division`.
    ///   - noise: the measured noise σ of one sample.
    ///   - division: d, for the quantisation floor and the rate's units.
    public mutating func process(_ sample: Double, time: UInt64, noise: Double, division: Double) -> Double {
        let variance = noise * noise + division * division / 12
        guard let previous = level, let last = lastTime, time > last else {
            restart(at: sample, count: 1, variance: variance, division: division, time: time, keepRate: false)
            return sample
        }
        let dt = Double(time - last) / 1e9
        lastTime = time
        // Predict.
        // A noisy signal needs a longer memory for its level to be known to ¼ d: the walk is
        // lowered until the steady state's level variance, √2 q^¼ (R Δt)^¾ for this model,
        // is (0.2 d)², inside the ¼ d of the stable rule.
        let target = 0.04 * division * division
        let spectral = (variance * dt).squareRoot()
        let ratio = target / (2.0.squareRoot() * spectral * spectral.squareRoot())
        let longest = ratio * ratio * ratio * ratio
        let q = min(tuning.rateWalk * division * division, longest)
        let predicted = previous + rate * dt
        let n00 = p00 + 2 * dt * p01 + dt * dt * p11 + q * dt * dt * dt / 3
        let n01 = p01 + dt * p11 + q * dt * dt / 2
        let n11 = p11 + q * dt
        (level, p00, p01, p11) = (predicted, n00, n01, n11)
        let innovation = sample - predicted
        let spread = n00 + variance
        let limit = tuning.outlierLimit * spread.squareRoot()
        if abs(innovation) > limit {
            hold(sample, time: time, variance: variance, division: division)
            return level!
        }
        held.removeAll(keepingCapacity: true)
        heldSince = nil
        // Update.
        let k0 = n00 / spread
        let k1 = n01 / spread
        level = predicted + k0 * innovation
        rate += k1 * innovation
        p00 = (1 - k0) * n00
        p01 = (1 - k0) * n01
        p11 = n11 - k1 * n01
        // Slow changes: the normalised innovations, summed each way.
        let u = innovation / spread.squareRoot()
        rise.add(u - tuning.cusumAllowance, sample: sample)
        fall.add(-u - tuning.cusumAllowance, sample: sample)
        // Two tests, not a loop over [rise, fall]: no array is made per sample.
        let side = rise.value > tuning.cusumLimit ? rise : fall.value > tuning.cusumLimit ? fall : nil
        if let side {
            restart(
                at: side.total / Double(side.count), count: side.count, variance: variance, division: division,
                time: time, keepRate: true)
        }
        return level!
    }

    private mutating func hold(_ sample: Double, time: UInt64, variance: Double, division: Double) {
        held.append(sample)
        if heldSince == nil { heldSince = time }
        let m = tuning.jumpSamples
        if held.count >= m {
            let latest = held[(held.count - m)...]
            let mean = latest.reduce(0, +) / Double(m)
            let agree = (2 * variance).squareRoot() * tuning.outlierLimit
            if latest.allSatisfy({ abs($0 - mean) <= agree }) || time - heldSince! >= tuning.longestHold {
                // A load creeping faster than the rate had learnt also outruns the outlier
                // limit: its rate is kept, or the restart would forget the creep and call it
                // still. Faster than ``Tuning/creepLimit`` it is a ramp that has ended or a
                // new load, and the rate starts again from its prior.
                let creeping = abs(rate) <= tuning.creepLimit * division
                restart(at: mean, count: m, variance: variance, division: division, time: time, keepRate: creeping)
            }
        }
    }

    private mutating func restart(
        at value: Double, count: Int, variance: Double, division: Double, time: UInt64, keepRate: Bool
    ) {
        level = value
        p00 = variance / Double(count)
        p01 = 0
        if keepRate {
            // Kept, but no longer trusted: as uncertain as it is large, so the next samples
            // correct it at once whether the creep goes on or has stopped.
            p11 = max(p11, tuning.ratePrior * tuning.ratePrior * division * division + rate * rate)
        } else {
            rate = 0
            p11 = tuning.ratePrior * tuning.ratePrior * division * division
        }
        lastTime = time
        held.removeAll(keepingCapacity: true)
        heldSince = nil
        rise = Sum()
        fall = Sum()
        restarts += 1
    }
}
