/// Tuning of the spike stage and the adaptive (fast-step) filter.
///
/// The windows are times, not sample counts, so a setting means the same at 10 SPS as at
/// 80 SPS (docs/engine.md, "Windows in time").
public struct FilterTuning: Hashable, Sendable {
    /// How long a sudden change may be held back as a possible spike before it counts as a
    /// step, in nanoseconds (at least one sample); 0 switches spike rejection off. 25 ms: a
    /// 5-sample Hampel window at 80 SPS, 3 samples at 10 SPS.
    public var spikeHoldTime: UInt64 = 25_000_000
    /// A sample further than this many scaled median absolute deviations from the window's
    /// median is replaced by the median (3: Hampel's usual choice).
    public var spikeThreshold: Double = 3
    /// Deviations smaller than this many divisions are never spikes, so quantised signals with
    /// a zero deviation are not treated as all-spike.
    public var spikeFloor: Double = 2
    /// The steady-state average's time constant τ in nanoseconds (200 ms: 16 samples at
    /// 80 SPS, 2 at 10 SPS).
    public var averagingTime: UInt64 = 200_000_000
    /// A jump of more than this many divisions restarts the average at the new value.
    public var stepThreshold: Double = 4
    /// The rms noise, in divisions, the average should keep at rest: when the measured noise
    /// of the samples would leave more, τ grows (``AdaptiveFilter``), up to
    /// ``longestAveragingTime``. 0.07 d: at that noise a display half a division from a
    /// rounding boundary changes less than once an hour, and the slope over 1 s stays well
    /// inside the stability rule's 0.5 d/s. 0 keeps τ whatever the noise.
    public var restNoise: Double = 0.07
    /// The longest τ a noisy signal may get, in nanoseconds (4 s: an HX711 at 10 SPS with 1 d
    /// of noise per conversion).
    public var longestAveragingTime: UInt64 = 4_000_000_000

    /// Which estimator turns the samples into the level: today's chain, or the level-and-rate
    /// filter on trial beside it (``LevelRateFilter``). An engine setting for the benchmarks and
    /// tests; no configuration file reaches it.
    public var estimator = Estimator.detectors

    public enum Estimator: Hashable, Sendable {
        /// The spike stage, the adaptive filter and the slope test.
        case detectors
        /// ``LevelRateFilter``, its tuning given.
        case levelRate(LevelRateFilter.Tuning)
    }

    public init() {}

    public func validate() -> Result<Void, Refusal> {
        guard spikeHoldTime <= 1_000_000_000 else {
            return .failure(
                Refusal(
                    .invalidConfiguration, "spike hold time \(spikeHoldTime / 1_000_000) ms is over 1 s",
                    hint: "use 25 ms (0 turns spike rejection off)"))
        }
        guard spikeThreshold > 0, spikeFloor >= 0 else {
            return .failure(
                Refusal(
                    .invalidConfiguration, "spike threshold or floor is not positive",
                    hint: "use threshold 3 and floor 2 d"))
        }
        guard (1_000_000...60_000_000_000).contains(averagingTime) else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "averaging time constant \(Double(averagingTime) / 1e6) ms is outside 1 ms ... 60 s",
                    hint: "use 200 ms"))
        }
        guard restNoise.isFinite, restNoise >= 0, longestAveragingTime >= averagingTime,
            longestAveragingTime <= 60_000_000_000
        else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "rest noise \(restNoise) d or longest averaging time \(Double(longestAveragingTime) / 1e6) ms "
                        + "is unusable",
                    hint: "use 0.07 d and 4000 ms (at least the averaging time, at most 60 s)"))
        }
        guard stepThreshold.isFinite, stepThreshold > 0 else {
            return .failure(
                Refusal(.invalidConfiguration, "step threshold \(stepThreshold) d is not positive", hint: "use 4 d"))
        }
        return .success(())
    }
}
