/// Motion detection: stable when the readings over a time window stay within a band, and the
/// samples do not show the load moving faster than a slope limit.
///
/// **Band.** max − min of the filtered readings over ``window`` ≤ ``band`` (OIML R 76-1 4.4.2
/// and A.4.12: a result taken at stable equilibrium is within 1 e of the final value).
///
/// **Slope.** A slow ramp stays inside any band over a short window: a load creeping at 2 d/s
/// moves 0.6 d in 300 ms and used to be called stable most of the time. So a line is fitted by
/// least squares to the samples (after the spike stage, before the average) of the last
/// ``slopeWindow``, counting only those since the average last restarted at a new level
/// (``restart()``: the engine calls it when a restart moved the average by more than the band), and
/// the load counts as moving when its slope is past ``slopeLimit`` by more than three standard
/// errors: |b| − 3 σ / √Σ(t − t̄)² > limit, σ the measured noise of one sample. On a quiet cell
/// the standard error is a few hundredths of the limit and this is |b| ≤ limit; on a noisy one
/// it says what the samples can tell. (Fitting the filtered readings instead would see the
/// average itself converging after a restart as motion, and their noise is correlated, so the
/// error could not be stated.) The fit must span the band window, so a slope is never judged
/// on fewer readings than the band is; counting from the restart keeps the readings of the
/// previous load out of it, so a step is judged on its new level alone.
///
/// Every window is in time rather than samples, so the same setting means the same thing at
/// 10 SPS and 80 SPS. The detector reports stable only once it has seen a full window, and it
/// restarts when time jumps backwards or a gap longer than the window appears (stale data
/// cannot vouch for now).
public struct StabilityDetector: Sendable {
    public let window: UInt64
    /// The largest max − min that still counts as stable; the engine sets it per sample before
    /// calibration, when it is measured from the noise.
    public var band: Double
    /// The largest slope per second that still counts as stable; infinity leaves the slope out.
    public var slopeLimit: Double
    /// Nanoseconds the slope is fitted over, at most.
    public let slopeWindow: UInt64
    /// Standard errors of the fitted slope that must lie beyond the limit to call it motion.
    public static let slopeErrors = 3.0
    private var samples: TimeWindow
    private var sinceRestart: TimeWindow

    /// - Parameters:
    ///   - window: nanoseconds the readings must stay within the band.
    ///   - band: the largest max − min that still counts as stable.
    ///   - slopeWindow: nanoseconds the slope is fitted over, at most (at least `window`).
    ///   - slopeLimit: the largest slope per second that counts as stable; infinity (the
    ///     default) judges the band alone.
    public init(window: UInt64, band: Double, slopeWindow: UInt64 = 0, slopeLimit: Double = .infinity) {
        self.window = window
        self.band = band
        self.slopeLimit = slopeLimit
        self.slopeWindow = max(window, slopeWindow)
        samples = TimeWindow(window: window)
        sinceRestart = TimeWindow(window: self.slopeWindow)
    }

    public mutating func reset() {
        samples.reset()
        sinceRestart.reset()
    }

    /// The average restarted at a new level: the slope is fitted from here on.
    public mutating func restart() {
        sinceRestart.reset()
    }

    /// The fitted slope per second of the samples since the last restart, within
    /// ``slopeWindow``; nil until they span the band window.
    public private(set) var slope: Double?

    /// Adds a reading and says whether the load is stable now.
    ///
    /// - Parameters:
    ///   - value: the filtered reading, judged by the band.
    ///   - sample: the sample it came from, for the slope (the value itself when nil).
    ///   - noise: the measured rms noise of one sample, for the slope's standard error.
    public mutating func update(_ value: Double, sample: Double? = nil, noise: Double = 0, time: UInt64) -> Bool {
        guard value.isFinite else {
            reset()
            slope = nil
            return false
        }
        samples.append(value, at: time)
        slope = nil
        var moving = false
        if slopeLimit.isFinite {
            let point = sample ?? value
            if point.isFinite { sinceRestart.append(point, at: time) } else { sinceRestart.reset() }
            if !sinceRestart.times.isEmpty, time - sinceRestart.times[sinceRestart.head] >= window,
                let fit = sinceRestart.fit()
            {
                slope = fit.slope
                let error = noise.isFinite ? Self.slopeErrors * max(0, noise) / fit.spread.squareRoot() : 0
                moving = abs(fit.slope) - error > slopeLimit
            } else {
                moving = true
            }
        }
        guard samples.isFull, !moving else { return false }
        var low = value
        var high = value
        for index in samples.indices {
            low = min(low, samples.values[index])
            high = max(high, samples.values[index])
        }
        return high - low <= band
    }
}
