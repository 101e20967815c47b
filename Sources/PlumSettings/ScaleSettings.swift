/// Scale settings: what `[scale]`, a sensor profile or a `[[sensor]]` table says, each key
/// optional, so that a layer changes only what it names, and the values the scale runs with.
///
/// The layers, lowest first: the engine's defaults, `[scale]`, the sensor's `profile`, the
/// sensor's own keys (``PlumConfiguration/scaleSettings(for:)``), each put over the one below
/// by ``overridden(by:)``. A key still nil at the end is the engine's default: the few whose
/// default is the scale's, not the engine's, are read through ``capacity``, ``division``,
/// ``tracksZero``, ``setsInitialZero``, ``restoresTare`` and ``recognizesContainers``.
package struct ScaleSettings: Hashable, Sendable {
    /// Full scale in grams; 385 g unless set, where iPhone 3D Touch reads 100 % force.
    package var capacityGrams: Double?
    /// The division d in grams, 1, 2 or 5 × 10^k; 0.1 g unless set.
    package var divisionGrams: Double?
    /// Automatic zero-tracking (at most 0.5 d/s, only while stable within ±0.5 d of zero); on
    /// unless set.
    package var zeroTracking: Bool?
    /// Initial zero-setting: the first stable load after start (and after the warm-up) becomes
    /// zero if within ±2 % of capacity, as a scale does when switched on; on unless set.
    package var initialZero: Bool?
    /// The average's time constant τ, in milliseconds.
    package var averagingMilliseconds: Double?
    /// The window stability is judged over, in milliseconds (never shorter than 1.5 τ).
    package var stabilityWindowMilliseconds: Double?
    /// Stable when the reading moves less than this many divisions over the window.
    package var stabilityBandDivisions: Double?
    /// A jump of more than this many divisions restarts the average at the new value.
    package var stepThresholdDivisions: Double?
    /// The window the flow rate is fitted over, in milliseconds.
    package var flowWindowMilliseconds: Double?
    /// How long the sensor warms up after start before initial zero-setting and the restore
    /// of a saved zero and tare, in seconds.
    package var warmUpSeconds: Double?
    /// The most divisions (capacity ÷ division) allowed; 10 000 (OIML class III) unless raised.
    package var maxDivisions: Double?
    /// Stable only while the load moves by at most this many divisions per second.
    package var stabilitySlopeDivisions: Double?
    /// The display moves to the next division only once the load is past the rounding
    /// boundary by this many divisions.
    package var displayHysteresisDivisions: Double?
    /// Min: below this many divisions no check verdict, count or item is given.
    package var minimumWeightDivisions: Double?
    /// The fastest zero-tracking correction, in divisions per second (at most 0.5).
    package var zeroTrackingRateDivisions: Double?
    /// Zero-tracking acts only within this many divisions of zero (at most 0.5).
    package var zeroTrackingBandDivisions: Double?
    /// `[scale]` only: restore each sensor's saved zero and tare at start, when they still apply
    /// (same calibration, load in range); they then replace initial zero-setting. On unless set.
    package var restoreTare: Bool?
    /// `[scale]` only: tare a saved container (a named tare) put on the empty pan by itself;
    /// off unless set.
    package var recognizeContainers: Bool?

    package init(
        capacityGrams: Double? = nil, divisionGrams: Double? = nil, zeroTracking: Bool? = nil,
        initialZero: Bool? = nil, restoreTare: Bool? = nil, averagingMilliseconds: Double? = nil,
        stabilityWindowMilliseconds: Double? = nil, stabilityBandDivisions: Double? = nil,
        stepThresholdDivisions: Double? = nil, flowWindowMilliseconds: Double? = nil,
        stabilitySlopeDivisions: Double? = nil, displayHysteresisDivisions: Double? = nil
    ) {
        self.capacityGrams = capacityGrams
        self.divisionGrams = divisionGrams
        self.zeroTracking = zeroTracking
        self.initialZero = initialZero
        self.restoreTare = restoreTare
        self.averagingMilliseconds = averagingMilliseconds
        self.stabilityWindowMilliseconds = stabilityWindowMilliseconds
        self.stabilityBandDivisions = stabilityBandDivisions
        self.stepThresholdDivisions = stepThresholdDivisions
        self.flowWindowMilliseconds = flowWindowMilliseconds
        self.stabilitySlopeDivisions = stabilitySlopeDivisions
        self.displayHysteresisDivisions = displayHysteresisDivisions
    }

    // MARK: - The values the scale runs with

    /// Full scale in grams.
    package var capacity: Double { capacityGrams ?? 385 }
    /// The division d in grams.
    package var division: Double { divisionGrams ?? 0.1 }
    package var tracksZero: Bool { zeroTracking ?? true }
    package var setsInitialZero: Bool { initialZero ?? true }
    package var restoresTare: Bool { restoreTare ?? true }
    package var recognizesContainers: Bool { recognizeContainers ?? false }

    // MARK: - Layers

    /// True when the layer changes nothing.
    package var isEmpty: Bool { self == ScaleSettings() }

    /// These settings with every key `upper` names replaced by its value.
    package func overridden(by upper: ScaleSettings) -> ScaleSettings {
        var result = self
        for key in Self.numbers where upper[keyPath: key] != nil { result[keyPath: key] = upper[keyPath: key] }
        for key in Self.switches where upper[keyPath: key] != nil { result[keyPath: key] = upper[keyPath: key] }
        return result
    }

    /// Every number a layer may set, and every switch: what ``overridden(by:)`` carries up.
    private static var numbers: [WritableKeyPath<ScaleSettings, Double?>] {
        [
            \.capacityGrams, \.divisionGrams, \.averagingMilliseconds, \.stabilityWindowMilliseconds,
            \.stabilityBandDivisions, \.stepThresholdDivisions, \.flowWindowMilliseconds, \.warmUpSeconds,
            \.maxDivisions,
            \.stabilitySlopeDivisions, \.displayHysteresisDivisions, \.minimumWeightDivisions,
            \.zeroTrackingRateDivisions, \.zeroTrackingBandDivisions
        ]
    }
    private static var switches: [WritableKeyPath<ScaleSettings, Bool?>] {
        [\.zeroTracking, \.initialZero, \.restoreTare, \.recognizeContainers]
    }

    // MARK: - Reading them

    /// Reads `[scale]`: a layer's keys, and what only the whole scale has.
    package init(_ reader: TOMLReader) throws(ConfigurationError) {
        var reader = reader
        try self.init(layer: &reader)
        restoreTare = try reader.bool("restore_tare")
        recognizeContainers = try reader.bool("recognize_containers")
        try reader.rejectUnknownKeys()
    }

    /// The keys a layer may set, as written in the file.
    package static let keys = [
        "capacity_grams", "division_grams", "zero_tracking", "initial_zero", "averaging_ms", "stability_window_ms",
        "stability_band_divisions", "step_threshold_divisions", "flow_window_ms", "warm_up_s", "max_divisions",
        "stability_slope_divisions", "display_hysteresis_divisions", "min_weight_divisions",
        "zero_tracking_rate_divisions", "zero_tracking_band_divisions"
    ]

    /// Reads the keys of this layer from `reader`, each checked for type and range.
    package init(layer reader: inout TOMLReader) throws(ConfigurationError) {
        capacityGrams = try reader.double("capacity_grams", in: 1...1_000_000, unit: "g")
        if let division = try reader.double("division_grams") {
            guard ScaleSettings.isValidDivision(division) else {
                throw reader.error(
                    "division_grams",
                    "division_grams = \(division) is not allowed; use 1, 2 or 5 × 10^k g, "
                        + "such as 0.1, 0.2, 0.5, 1 or 2")
            }
            divisionGrams = division
        }
        zeroTracking = try reader.bool("zero_tracking")
        initialZero = try reader.bool("initial_zero")
        // The engine's own limits: τ from 1 ms to 60 s; the band and threshold are positive.
        averagingMilliseconds = try reader.double(
            "averaging_ms", in: 1...60_000, unit: "ms (the average's time constant)")
        stabilityWindowMilliseconds = try reader.double(
            "stability_window_ms", in: 10...60_000, unit: "ms (how long the reading must hold still)")
        stabilityBandDivisions = try reader.double(
            "stability_band_divisions", in: 0.1...100, unit: "divisions (how far a stable reading may move)")
        stepThresholdDivisions = try reader.double(
            "step_threshold_divisions", in: 0.5...10_000, unit: "divisions (a jump that restarts the average)")
        flowWindowMilliseconds = try reader.double(
            "flow_window_ms", in: 100...60_000, unit: "ms (how much time the flow rate is fitted over)")
        warmUpSeconds = try reader.double(
            "warm_up_s", in: 0...3_600, unit: "s (how long the sensor warms up before zero-setting at start)")
        maxDivisions = try reader.double(
            "max_divisions", in: 10...1_000_000, unit: "divisions (capacity ÷ division; 10000 for OIML class III)")
        stabilitySlopeDivisions = try reader.double(
            "stability_slope_divisions", in: 0.01...1_000,
            unit: "divisions per second (how fast a stable load may move)")
        displayHysteresisDivisions = try reader.double(
            "display_hysteresis_divisions", in: 0...0.49,
            unit: "divisions (how far past a rounding boundary the display moves)")
        if let minimum = try reader.double(
            "min_weight_divisions", in: 0...10_000, unit: "divisions (Min; 20 for OIML class III, 0 for none)")
        {
            guard minimum == minimum.rounded() else {
                throw reader.error(
                    "min_weight_divisions",
                    "min_weight_divisions = \(minimum) is not a whole number of divisions; use 20")
            }
            minimumWeightDivisions = minimum
        }
        // OIML R 76-1 4.5.7: zero-tracking at most 0.5 e/s, and only within 0.5 e of zero.
        zeroTrackingRateDivisions = try reader.double(
            "zero_tracking_rate_divisions", in: 0...0.5,
            unit: "divisions per second (OIML R 76-1 4.5.7 allows at most 0.5)")
        zeroTrackingBandDivisions = try reader.double(
            "zero_tracking_band_divisions", in: 0...0.5,
            unit: "divisions either side of zero (OIML R 76-1 4.5.7 allows at most 0.5)")
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
