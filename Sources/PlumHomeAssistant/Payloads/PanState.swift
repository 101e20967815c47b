/// What the bridge publishes about a pan on its state and live topics, as JSON.
///
/// On the state topic `grams` is the last stable weight that was published (it does not follow
/// the pan while it moves); on the live topic it is the present weight.
package struct PanState: Hashable, Sendable, Encodable {
    /// Net grams rounded to the division; nil while there is no valid weight.
    package var grams: Double?
    package var stable: Bool
    package var overload: Bool
    package var underload: Bool
    /// The force on the pan (tare included) in percent of full scale, one decimal.
    package var percent: Double?
    package var tare: Double
    package var calibrated: Bool
    /// When the reading was taken, seconds since the Unix epoch.
    package var time: Double
    /// How fast the weight changes, grams per second (the daemon's `flow`, to 0.01 g/s); nil
    /// until the daemon has a rate. Current on the live topic; on the state topic, the rate when
    /// that state was published.
    package var flow: Double?

    package init(
        grams: Double?, stable: Bool, overload: Bool, underload: Bool, percent: Double?, tare: Double,
        calibrated: Bool, time: Double, flow: Double? = nil
    ) {
        self.grams = grams
        self.stable = stable
        self.overload = overload
        self.underload = underload
        self.percent = percent
        self.tare = tare
        self.calibrated = calibrated
        self.time = time
        self.flow = flow
    }

    /// Encodes nil as `null`, so a template sees the key (`value_json.grams` is None, not an error).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(grams, forKey: .grams)
        try container.encode(stable, forKey: .stable)
        try container.encode(overload, forKey: .overload)
        try container.encode(underload, forKey: .underload)
        try container.encode(percent, forKey: .percent)
        try container.encode(tare, forKey: .tare)
        try container.encode(calibrated, forKey: .calibrated)
        try container.encode(time, forKey: .time)
        try container.encode(flow, forKey: .flow)
    }

    private enum CodingKeys: String, CodingKey {
        case grams, stable, overload, underload, percent, tare, calibrated, time, flow
    }
}
