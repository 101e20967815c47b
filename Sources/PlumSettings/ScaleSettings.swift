/// Scale-wide settings from `[scale]`.
package struct ScaleSettings: Hashable, Sendable {
    /// Full scale in grams: 385 g, where iPhone 3D Touch reads 100 % force.
    package var capacityGrams: Double = 385
    /// The division d in grams: 1, 2 or 5 × 10^k.
    package var divisionGrams: Double = 0.1
    /// Automatic zero-tracking (at most 0.5 d/s, only while stable within ±0.5 d of zero).
    package var zeroTracking: Bool = true
    /// Initial zero-setting: the first stable load after start (and after the warm-up) becomes
    /// zero if within ±2 % of capacity, as a scale does when switched on.
    package var initialZero: Bool = true
    /// Restore each sensor's saved zero and tare at start, when they still apply (same
    /// calibration, load in range); they then replace initial zero-setting.
    package var restoreTare: Bool = true
    /// Tare a saved container (a named tare) put on the empty pan by itself; off by default.
    package var recognizeContainers: Bool = false
    /// The average's time constant τ in milliseconds; nil for the engine's (200 ms).
    package var averagingMilliseconds: Double?
    /// The stability window in milliseconds; nil for the engine's (300 ms, at least 1.5 τ).
    package var stabilityWindowMilliseconds: Double?
    /// How far a stable reading may move, in divisions; nil for the engine's (1 d).
    package var stabilityBandDivisions: Double?
    /// A jump that restarts the average, in divisions; nil for the engine's (4 d).
    package var stepThresholdDivisions: Double?
    /// The flow rate's window in milliseconds; nil for the engine's (1000 ms).
    package var flowWindowMilliseconds: Double?
    /// The warm-up in seconds before initial zero-setting and the restore; nil for none.
    package var warmUpSeconds: Double?
    /// The most divisions allowed; nil for the engine's 10 000 (OIML class III).
    package var maxDivisions: Double?
    /// How fast a stable load may move, in divisions per second; nil for the engine's (0.5 d/s).
    package var stabilitySlopeDivisions: Double?
    /// How far past a rounding boundary the display moves, in divisions; nil for the engine's
    /// (0.25 d).
    package var displayHysteresisDivisions: Double?
    /// Min in divisions; nil for the engine's (20 d, OIML class III).
    package var minimumWeightDivisions: Double?
    /// Zero-tracking's rate in d/s and band in ±d; nil for the engine's (0.5 and 0.5).
    package var zeroTrackingRateDivisions: Double?
    package var zeroTrackingBandDivisions: Double?

    package init(
        capacityGrams: Double = 385, divisionGrams: Double = 0.1, zeroTracking: Bool = true, initialZero: Bool = true,
        restoreTare: Bool = true
    ) {
        self.capacityGrams = capacityGrams
        self.divisionGrams = divisionGrams
        self.zeroTracking = zeroTracking
        self.initialZero = initialZero
        self.restoreTare = restoreTare
    }

    /// Reads `[scale]`: one layer over the defaults, plus what only the whole scale has.
    package init(_ reader: TOMLReader) throws(ConfigurationError) {
        var reader = reader
        self = try ScaleOverrides(&reader).applied(to: ScaleSettings())
        restoreTare = try reader.bool("restore_tare") ?? restoreTare
        recognizeContainers = try reader.bool("recognize_containers") ?? recognizeContainers
        try reader.rejectUnknownKeys()
    }

    /// True for 1, 2 or 5 × 10^k (k from −4 to 4).
    package static func isValidDivision(_ value: Double) -> Bool {
        guard value > 0, value.isFinite else { return false }
        for exponent in -4...4 {
            var power = 1.0
            if exponent >= 0 { for _ in 0..<exponent { power *= 10 } } else { for _ in 0 ..< -exponent { power /= 10 } }
            for mantissa in [1.0, 2.0, 5.0] where abs(value - mantissa * power) <= 1e-9 * power { return true }
        }
        return false
    }
}
