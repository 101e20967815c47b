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
/// average catches such a change: it adds up each deviation beyond an allowance k and restarts
/// the average once the sum passes a decision interval h. Restarting, it takes the mean of the
/// samples the sum gathered since it last stood at zero, not the last sample alone, so a noisy
/// signal does not restart on one noisy draw.
///
/// **Judged against the noise.** k and h are the larger of a shift's share (k = ½ shift,
/// h = 1 shift: a sustained change of 1.5 shifts is caught on its first sample, one of 1
/// shift on its second) and a multiple of the sample noise σ (``noise``, measured by the
/// engine): k = σ, h = 8 σ. A sum of m deviations has noise σ√m, so h = 8 σ judges what
/// several samples say together, and a single draw of 3 σ adds 2 σ, far short of a step; a
/// shift of 2 σ is caught within about 8 samples. (The CUSUM used to run on the shift alone,
/// k = ½ d and h = 1 d: at σ = 0.56 d a third of all samples fed it and it restarted the
/// average several times a second.) With these constants noise alone restarts the average
/// about once in 10⁷ samples (Siegmund's approximation). ``isSettling`` says the sum is past
/// max(½ shift, 4.5 σ²/k), above which noise alone keeps it about e⁻⁹ (0.01 %) of the time
/// (4.5 σ on a noisy cell, 0.76 d at σ = 0.29 d), or that the newest sample lies more than
/// max(shift, 3 σ) from the average (0.3 % of the samples of pure noise: one draw is never a
/// step, but it is no evidence of rest either).
///
/// **Longer averaging for noisier signals.** The average's own noise is σ·√(Δt / 2τ). When the
/// measured noise would leave more than ``restNoise`` of it, τ grows to σ²·Δt / (2·restNoise²),
/// up to ``longestAveragingTime``: an HX711 with 1 d of noise per conversion averages over
/// 1.3 s at 80 SPS and 4 s at 10 SPS, and a quiet one keeps τ. The CUSUM and the step threshold
/// still restart the average at once on a real change, so a longer τ costs nothing in speed
/// after a step: after a restart the weight is the plain mean 1/n until n reaches τ/Δt.
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
    private var allowance = Double.infinity
    private var settlingLimit = Double.infinity
    /// The newest sample's deviation from the average before it, and the largest that is noise.
    private var lastDeviation = 0.0
    private var outlierLimit = Double.infinity
    /// Samples and sum of deviations since each CUSUM sum last stood at zero.
    private var riseCount = 0
    private var riseDeviations = 0.0
    private var fallCount = 0
    private var fallDeviations = 0.0
    /// The average's own rms noise at rest that a longer τ is chosen for (same unit as the
    /// samples; 0 keeps τ whatever the noise).
    public var restNoise = 0.0
    /// The longest τ a noisy signal may get, in nanoseconds.
    public var longestAveragingTime: UInt64
    /// Samples averaged since the last restart.
    public private(set) var depth = 0
    /// The sample a restart began at, while the average is still the plain mean it began (nil
    /// once it has been judged, or the average went exponential).
    private var anchor: Double?
    /// Restarts caused by a step or a sustained shift since creation, for diagnostics.
    public private(set) var stepCount = 0

    /// - Parameters:
    ///   - timeConstant: τ in nanoseconds (200 ms by default in ``FilterTuning``).
    ///   - longestAveragingTime: the longest τ a noisy signal may get (at least τ).
    ///   - restNoise: the average's rms noise at rest to lengthen τ for; 0 never lengthens it.
    public init(timeConstant: UInt64, longestAveragingTime: UInt64 = 0, restNoise: Double = 0) {
        self.timeConstant = max(1, timeConstant)
        self.longestAveragingTime = max(self.timeConstant, longestAveragingTime)
        self.restNoise = restNoise
    }

    /// The CUSUM has gathered enough to suspect a change (above): the load may be moving to a
    /// new level the average has not reached.
    public var isSettling: Bool { max(riseSum, fallSum) > settlingLimit || abs(lastDeviation) > outlierLimit }

    /// Forgets the history.
    public mutating func reset() {
        depth = 0
        anchor = nil
        lastTime = nil
        clearSums()
        lastDeviation = 0
    }

    /// Filters one sample.
    ///
    /// - Parameters:
    ///   - time: the sample's monotonic time in nanoseconds.
    ///   - stepThreshold: a deviation from the average larger than this restarts the average
    ///     at once (same unit as `x`).
    ///   - shift: the smallest sustained change to catch and restart on (the engine: 1 d).
    ///     Infinity turns the CUSUM off.
    ///   - noise: the rms noise of one sample, as measured (0 while unknown): the CUSUM's
    ///     allowance and decision interval, and τ, grow with it (above).
    /// - Returns: the filtered value.
    public mutating func process(
        _ x: Double, time: UInt64, stepThreshold: Double, shift: Double = .infinity, noise: Double = 0
    ) -> Double {
        defer { lastTime = time }
        let sigma = noise.isFinite ? max(0, noise) : 0
        allowance = max(shift / 2, sigma)
        let interval = max(shift, 8 * sigma)
        // Noise alone keeps the sum above L about e^(−2kL/σ²) of the time: L for e^(−9).
        settlingLimit = max(shift / 2, allowance > 0 ? 4.5 * sigma * sigma / allowance : 0)
        outlierLimit = max(shift, 3.5 * sigma)
        lastDeviation = depth == 0 ? 0 : x - average
        if depth == 0 || !(abs(x - average) <= stepThreshold) {
            restart(at: x, samples: 1)
            return average
        }
        let deviation = x - average
        // Against a young mean a deviation carries the mean's own error too: judged as a
        // self-starting CUSUM does (Hawkins, 1987), scaled to one sample's noise.
        accumulate(deviation / (1 + 1 / Double(depth)).squareRoot())
        if riseSum > interval {
            restart(at: average + riseDeviations / Double(riseCount), samples: riseCount)
            return average
        }
        if fallSum > interval {
            restart(at: average + fallDeviations / Double(fallCount), samples: fallCount)
            return average
        }
        depth += 1
        // Time going backwards or standing still earns no exponential weight: the plain mean.
        let elapsed = lastTime.map { time > $0 ? Double(time - $0) : 0 } ?? 0
        let exponential = 1 - exp(-elapsed / averagingTime(noise: sigma, interval: elapsed))
        if exponential > 1 / Double(depth) { anchor = nil }
        average += deviation * max(1 / Double(depth), exponential)
        judgeAnchor(sigma: sigma)
        return average
    }

    /// A restart on one sample trusts that sample as much as any later one, and in the ringing
    /// after a placement it may be the last swing, several σ off the load: the plain mean then
    /// carries that bias as 1/n, a division for seconds at 10 SPS. Once three more samples are
    /// in (up to eight), the sample is judged against their mean, and dropped when it lies more
    /// than 3 σ·√(1 + 1/m) from the m others: the average restarts at their mean.
    private mutating func judgeAnchor(sigma: Double) {
        guard let first = anchor, depth >= 4, sigma > 0 else { return }
        let others = (average * Double(depth) - first) / Double(depth - 1)
        if abs(first - others) > 3 * sigma * (1 + 1 / Double(depth - 1)).squareRoot() {
            average = others
            depth -= 1
            clearSums()
            anchor = nil
        } else if depth >= 8 {
            anchor = nil
        }
    }

    /// τ for a sample `interval` ns after the previous one at this noise (above).
    private func averagingTime(noise: Double, interval: Double) -> Double {
        let base = Double(timeConstant)
        guard restNoise > 0, noise > restNoise else { return base }
        let wanted = noise * noise * interval / (2 * restNoise * restNoise)
        return min(Double(longestAveragingTime), max(base, wanted))
    }

    private mutating func accumulate(_ deviation: Double) {
        riseSum = max(0, riseSum + deviation - allowance)
        if riseSum == 0 {
            (riseCount, riseDeviations) = (0, 0)
        } else {
            (riseCount, riseDeviations) = (riseCount + 1, riseDeviations + deviation)
        }
        fallSum = max(0, fallSum - deviation - allowance)
        if fallSum == 0 {
            (fallCount, fallDeviations) = (0, 0)
        } else {
            (fallCount, fallDeviations) = (fallCount + 1, fallDeviations + deviation)
        }
    }

    private mutating func clearSums() {
        (riseSum, riseCount, riseDeviations) = (0, 0, 0)
        (fallSum, fallCount, fallDeviations) = (0, 0, 0)
    }

    /// Starts the average again at `x`, counted as the mean of `samples` samples.
    private mutating func restart(at x: Double, samples: Int) {
        if depth > 0 { stepCount += 1 }
        average = x
        depth = max(1, samples)
        anchor = depth == 1 ? x : nil
        clearSums()
    }
}
