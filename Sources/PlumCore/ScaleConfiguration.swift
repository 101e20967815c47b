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
    /// Zero-setting range as a fraction of capacity on each side (OIML R 76-1: zero-setting and tracking together at
    /// most 4 % of Max).
    public var zeroRangeFraction: Double = 0.04
    /// Whether automatic zero-tracking runs.
    public var zeroTracking: Bool = true
    /// Initial zero-setting, as a scale does when switched on: the first stable load after the
    /// engine starts becomes zero if it lies within the zero range; a heavier load is left
    /// alone. It takes up the zero's drift since calibration (temperature, creep recovery).
    public var initialZeroSetting: Bool = true
    /// Fastest zero-tracking correction, in divisions per second (OIML R 76-1: 0.5 e/s).
    public var zeroTrackingRate: Double = 0.5
    /// Zero-tracking acts only while the gross reading is within this many divisions of zero.
    public var zeroTrackingBand: Double = 0.5
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
    public var filter = FilterTuning()
    public var cue = CueConfiguration()

    public init() {}

    /// The window stability is judged over: the configured one, but never shorter than 1.5
    /// averaging time constants. Over 1.5 τ an exponential approach covers 78 % of what
    /// remains, so a spread within 1 d means less than 0.3 d is still to come.
    public var effectiveStabilityWindow: UInt64 { max(stabilityWindow, filter.averagingTime / 2 * 3) }

    /// The zero-setting range in grams on each side of calibrated zero.
    public var zeroRange: Double { capacity * zeroRangeFraction }
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
        guard capacity / division.grams >= 10, capacity / division.grams <= 1_000_000 else {
            return bad(
                "capacity \(capacity) g with division \(division) gives \(capacity / division.grams) divisions",
                "choose a division giving 10 to 1,000,000 divisions (3850 at 385 g and 0.1 g)")
        }
        guard zeroRangeFraction >= 0, zeroRangeFraction <= 0.2 else {
            return bad("zero range \(zeroRangeFraction * 100) % is outside 0 ... 20 %", "use 0.04 (4 % of capacity)")
        }
        guard zeroTrackingRate.isFinite, zeroTrackingRate >= 0, zeroTrackingBand >= 0 else {
            return bad("zero-tracking rate or band is negative", "use rate 0.5 d/s and band 0.5 d")
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
