/// Everything that shapes one sensor's readings: full scale, division, zero, stability, cue
/// and filter tuning.
///
/// Defaults follow the 3D Touch scale (385 g is 100 % force) and OIML R 76-1 for non-automatic
/// weighing instruments; docs/engine.md explains each one. Check a hand-edited value with
/// ``validate()`` before building an engine.
public struct ScaleConfiguration: Hashable, Sendable {
    /// Maximum capacity (Max) in grams; 100 % force.
    public var capacity: Double = 385
    /// The scale interval d.
    public var division: Division = .standard
    /// Zero-setting range as a fraction of capacity on each side of the power-up zero
    /// (``WeighingEngine/zeroReference``). OIML R 76-1 4.5.1 limits zero-setting and
    /// zero-tracking together to 4 % of Max, so the range spans at most 2 × 2 %.
    public var zeroRangeFraction: Double = 0.02
    /// Initial zero-setting range as a fraction of capacity on each side of calibrated zero.
    /// OIML R 76-1 4.5.1 allows up to 20 % of Max in all (±10 %); the default is the zero range,
    /// so that a plum left on the pan at a restart is weighed rather than zeroed.
    public var initialZeroRangeFraction: Double = 0.02
    /// Whether automatic zero-tracking runs.
    public var zeroTracking: Bool = true
    /// Initial zero-setting, as a scale does when switched on: the first stable load after the
    /// engine starts becomes zero if it lies within the zero range; a heavier load is left
    /// alone. It takes up the zero's drift since calibration (temperature, creep recovery).
    public var initialZeroSetting: Bool = true
    /// Fastest zero-tracking correction, in divisions per second (OIML R 76-1 4.5.7: at most
    /// 0.5 e/s; ``validate()`` refuses more).
    public var zeroTrackingRate: Double = 0.5
    /// Zero-tracking acts only while the gross reading is within this many divisions of zero
    /// (R 76-1 4.5.7 lets it act only near zero; ``validate()`` refuses more than ±0.5 d).
    public var zeroTrackingBand: Double = 0.5
    /// Min, the minimum weight, in divisions: below it no weighing result is given: no
    /// check-weighing verdict, no piece count, no item (docs/items.md, "Minimum weight").
    /// OIML R 76-1 table 3 puts Min at 20 e for class III; 0 turns it off.
    public var minimumWeightDivisions: Int64 = 20
    /// Stability window in nanoseconds (300 ms: 24 samples at 80 SPS, 3 at 10 SPS); see
    /// ``effectiveStabilityWindow``.
    public var stabilityWindow: UInt64 = 300_000_000
    /// The window the flow rate (``Reading/flow``) is fitted over, in nanoseconds (1 s: 81
    /// samples at 80 SPS, 11 at 10 SPS).
    public var flowWindow: UInt64 = FlowRate.defaultWindow
    /// Stable when max − min over the window stays within this many divisions.
    public var stabilityBand: Double = 1
    /// Stable only while the load moves by at most this many divisions per second: the
    /// least-squares slope of the filtered load over the flow window, since the average last
    /// restarted (``StabilityDetector``). 0.5 d/s: the band alone cannot see a slow ramp.
    public var stabilitySlope: Double = 0.5
    /// The displayed division changes only when the filtered load is past the rounding
    /// boundary by this many divisions (0.25 d), so a load resting near a boundary does not
    /// flicker between two values. 0 rounds to the nearest division as before. The display may
    /// then differ from the filtered load by up to ½ d + this.
    public var displayHysteresis: Double = 0.25
    /// Divisions above capacity at which the reading becomes an overload (OIML R 76-1: no indication above Max + 9 e).
    public var overloadMargin: Double = 9
    /// A pan counts as loaded when its net load is at least this many divisions (20 d, the
    /// usual minimum capacity Min of an OIML class III scale).
    public var loadedThreshold: Double = 20
    /// Whether a restart restores the zero and tare saved before it (`[scale] restore_tare`),
    /// when the same calibration is in use and the load allows (``ZeroTareRestore``).
    public var restoreTare: Bool = true
    /// Whether a saved container put on the empty pan is tared by itself (`[scale]
    /// recognize_containers`, ``ContainerRecognizer``); off by default, since a load that happens
    /// to weigh as a saved container would be tared too.
    public var recognizeContainers: Bool = false
    /// How long after the first sample the sensor warms up, in nanoseconds (0: none). Until
    /// then initial zero-setting and the restore decision wait, since a cell's zero still
    /// moves as the excitation warms it (``WeighingEngine/isWarmingUp``).
    public var warmUp: UInt64 = 0
    /// The most divisions (Max ÷ d) allowed. Every R 76 limit in the engine is in d, which
    /// assumes the verification interval e equals d; an OIML class III scale has at most
    /// 10 000 of them (R 76-1 table 3). Raise it only knowing the limits then stand for less.
    public var maxDivisions: Double = 10_000
    /// The signal per gram the sensor's profile makes plausible (its cell's rated output, the
    /// ADC's gain and resolution), or nil when unknown. A load-cell calibration far from it is
    /// flagged for confirmation (``FitQuality/warning``).
    public var nominalSignalPerGram: Double?
    public var filter = FilterTuning()
    public var cue = CueConfiguration()

    public init() {}

    /// The window stability is judged over: the configured one, but never shorter than 1.5
    /// averaging time constants. Over 1.5 τ an exponential approach covers 78 % of what
    /// remains, so a spread within 1 d means less than 0.3 d is still to come.
    public var effectiveStabilityWindow: UInt64 { max(stabilityWindow, filter.averagingTime / 2 * 3) }

    /// The zero-setting range in grams on each side of the power-up zero.
    public var zeroRange: Double { capacity * zeroRangeFraction }
    /// The initial zero-setting range in grams on each side of calibrated zero.
    public var initialZeroRange: Double { capacity * initialZeroRangeFraction }
    /// The tares a scale takes, sets or restores: 0 … Max (R 76-1 4.6: a subtractive tare
    /// device leaves no more than Max to weigh), so what can be tared can be restored.
    public var tareRange: ClosedRange<Double> { 0...capacity }
    /// Min in grams (``minimumWeightDivisions`` × d).
    public var minimumWeight: Double { division.grams(divisions: minimumWeightDivisions) }
    /// The gross load above which the reading is an overload.
    public var overloadLimit: Double { capacity + overloadMargin * division.grams }

    /// Checks every field and names the first that is unusable.
    public func validate() -> Result<Void, Refusal> {
        func bad(_ what: String, _ hint: String) -> Result<Void, Refusal> {
            .failure(Refusal(.invalidConfiguration, what, hint: hint))
        }
        guard capacity.isFinite, capacity > 0 else {
            return bad("capacity \(capacity) g is not a positive number", "set capacity in grams, for example 385")
        }
        guard maxDivisions.isFinite, maxDivisions >= 10, maxDivisions <= 1_000_000 else {
            return bad("max_divisions \(maxDivisions) is outside 10 ... 1,000,000", "use 10000 (OIML class III)")
        }
        let divisions = capacity / division.grams
        guard divisions >= 10, divisions <= maxDivisions * (1 + 1e-9) else {
            return bad(
                "capacity \(capacity) g with division_grams \(division) gives \(Reading.fixed(divisions, decimals: 0)) "
                    + "divisions, \(divisions < 10 ? "under 10" : "over max_divisions \(Int(maxDivisions))")",
                divisions < 10
                    ? "choose a smaller division_grams"
                    : "choose a division_grams of at least \(capacity / maxDivisions) g, or raise max_divisions if "
                        + "the scale truly resolves that many (the R 76 limits in d then stand for less)")
        }
        guard zeroRangeFraction >= 0, zeroRangeFraction <= 0.02 else {
            return bad(
                "zero range ±\(zeroRangeFraction * 100) % is outside ±0 ... 2 % "
                    + "(4 % of Max in all, OIML R 76-1 4.5.1)",
                "use 0.02 (±2 % of capacity)")
        }
        guard initialZeroRangeFraction >= zeroRangeFraction, initialZeroRangeFraction <= 0.1 else {
            return bad(
                "initial zero range ±\(initialZeroRangeFraction * 100) % is outside ±\(zeroRangeFraction * 100) "
                    + "... 10 % (20 % of Max in all, OIML R 76-1 4.5.1)",
                "use 0.02 (±2 % of capacity)")
        }
        // R 76-1 4.5.7: zero-tracking at most 0.5 e/s, and only near zero; e = d here.
        guard zeroTrackingRate.isFinite, (0...0.5).contains(zeroTrackingRate) else {
            return bad(
                "zero-tracking rate \(zeroTrackingRate) d/s is outside 0 ... 0.5 d/s (OIML R 76-1 4.5.7)",
                "set zero_tracking_rate_divisions to 0.5 or less; a faster rate would swallow a slowly placed load")
        }
        guard zeroTrackingBand.isFinite, (0...0.5).contains(zeroTrackingBand) else {
            return bad(
                "zero-tracking band ±\(zeroTrackingBand) d is outside ±0 ... 0.5 d (OIML R 76-1 4.5.7)",
                "set zero_tracking_band_divisions to 0.5 or less; a wider band would track a light load away")
        }
        guard minimumWeightDivisions >= 0, Double(minimumWeightDivisions) * division.grams < capacity else {
            return bad(
                "minimum weight \(minimumWeightDivisions) d is outside 0 d ... the capacity \(capacity) g",
                "set min_weight_divisions to 20 (OIML class III), or 0 to turn the minimum weight off")
        }
        guard stabilityWindow > 0, stabilityBand.isFinite, stabilityBand > 0 else {
            return bad("stability window or band is not positive", "use a 300 ms window and a 1 d band")
        }
        guard stabilitySlope.isFinite, stabilitySlope > 0 else {
            return bad("stability slope \(stabilitySlope) d/s is not positive", "use 0.5 d/s")
        }
        guard displayHysteresis.isFinite, (0..<0.5).contains(displayHysteresis) else {
            return bad(
                "display hysteresis \(displayHysteresis) d is outside 0 ..< 0.5 d", "use 0.25 d (0 turns it off)")
        }
        guard (1_000_000...60_000_000_000).contains(flowWindow) else {
            return bad("flow window \(Double(flowWindow) / 1e6) ms is outside 1 ms ... 60 s", "use 1000 ms")
        }
        guard overloadMargin >= 0, loadedThreshold >= 0 else {
            return bad("overload margin or loaded threshold is negative", "use 9 d and 20 d")
        }
        if case .failure(let refusal) = filter.validate() { return .failure(refusal) }
        return cue.validate()
    }
}
