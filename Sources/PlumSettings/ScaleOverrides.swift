/// One layer of scale settings: what `[scale]`, a sensor profile or a `[[sensor]]` table says,
/// each key optional, so that a layer changes only what it names.
///
/// The layers, lowest first: the engine's defaults, `[scale]`, the sensor's `profile`, the
/// sensor's own keys (``PlumConfiguration/scaleSettings(for:)``).
package struct ScaleOverrides: Hashable, Sendable {
    package var capacityGrams: Double?
    package var divisionGrams: Double?
    package var zeroTracking: Bool?
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

    package init(
        capacityGrams: Double? = nil, divisionGrams: Double? = nil, zeroTracking: Bool? = nil,
        initialZero: Bool? = nil, averagingMilliseconds: Double? = nil, stabilityWindowMilliseconds: Double? = nil,
        stabilityBandDivisions: Double? = nil, stepThresholdDivisions: Double? = nil,
        flowWindowMilliseconds: Double? = nil, stabilitySlopeDivisions: Double? = nil,
        displayHysteresisDivisions: Double? = nil
    ) {
        self.capacityGrams = capacityGrams
        self.divisionGrams = divisionGrams
        self.zeroTracking = zeroTracking
        self.initialZero = initialZero
        self.averagingMilliseconds = averagingMilliseconds
        self.stabilityWindowMilliseconds = stabilityWindowMilliseconds
        self.stabilityBandDivisions = stabilityBandDivisions
        self.stepThresholdDivisions = stepThresholdDivisions
        self.flowWindowMilliseconds = flowWindowMilliseconds
        self.stabilitySlopeDivisions = stabilitySlopeDivisions
        self.displayHysteresisDivisions = displayHysteresisDivisions
    }

    /// True when the layer changes nothing.
    package var isEmpty: Bool { self == ScaleOverrides() }

    /// `settings` with every key this layer names replaced.
    package func applied(to settings: ScaleSettings) -> ScaleSettings {
        var result = settings
        if let capacityGrams { result.capacityGrams = capacityGrams }
        if let divisionGrams { result.divisionGrams = divisionGrams }
        if let zeroTracking { result.zeroTracking = zeroTracking }
        if let initialZero { result.initialZero = initialZero }
        if let averagingMilliseconds { result.averagingMilliseconds = averagingMilliseconds }
        if let stabilityWindowMilliseconds { result.stabilityWindowMilliseconds = stabilityWindowMilliseconds }
        if let stabilityBandDivisions { result.stabilityBandDivisions = stabilityBandDivisions }
        if let stepThresholdDivisions { result.stepThresholdDivisions = stepThresholdDivisions }
        if let flowWindowMilliseconds { result.flowWindowMilliseconds = flowWindowMilliseconds }
        if let warmUpSeconds { result.warmUpSeconds = warmUpSeconds }
        if let maxDivisions { result.maxDivisions = maxDivisions }
        if let stabilitySlopeDivisions { result.stabilitySlopeDivisions = stabilitySlopeDivisions }
        if let displayHysteresisDivisions { result.displayHysteresisDivisions = displayHysteresisDivisions }
        if let minimumWeightDivisions { result.minimumWeightDivisions = minimumWeightDivisions }
        if let zeroTrackingRateDivisions { result.zeroTrackingRateDivisions = zeroTrackingRateDivisions }
        if let zeroTrackingBandDivisions { result.zeroTrackingBandDivisions = zeroTrackingBandDivisions }
        return result
    }

    /// The keys a layer may set, as written in the file.
    package static let keys = [
        "capacity_grams", "division_grams", "zero_tracking", "initial_zero", "averaging_ms", "stability_window_ms",
        "stability_band_divisions", "step_threshold_divisions", "flow_window_ms", "warm_up_s", "max_divisions",
        "stability_slope_divisions", "display_hysteresis_divisions", "min_weight_divisions",
        "zero_tracking_rate_divisions", "zero_tracking_band_divisions"
    ]

    /// Reads the keys of this layer from `reader`, each checked for type and range.
    package init(_ reader: inout TOMLReader) throws(ConfigurationError) {
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
}
