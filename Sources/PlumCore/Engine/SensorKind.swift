/// What the signal physically is, which decides how it is calibrated.
public enum SensorKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A strain-gauge load cell through an ADC such as the HX711: signal in raw counts, linear
    /// in load (optionally with a small quadratic term).
    case loadCell = "load-cell"
    /// A force-sensitive resistor in a divider: signal is conductance in microsiemens, a power
    /// law of force. An indicator (±5–25 %), not a weighing instrument.
    case fsr
}
