/// What the signal physically is, which decides how it is calibrated.
public enum SensorKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A strain-gauge load cell through an ADC such as the HX711: signal in raw counts, linear
    /// in load (optionally with a small quadratic term).
    case loadCell = "load-cell"
    /// A force-sensitive resistor in a divider: signal is conductance in microsiemens, a power
    /// law of force. An indicator (±5–25 %), not a weighing instrument.
    case fsr

    /// A rough signal per gram, used only to filter and detect stability before calibration
    /// when the configuration gives no ``ScaleConfiguration/nominalSignalPerGram``.
    ///
    /// Load cell: an HX711 at gain 128 with a 1 kg, 1 mV/V cell gives
    /// 1 mV/V × 128 × 2^24 / 1000 g ≈ 2147 counts per gram (ratiometric, so independent of the
    /// excitation voltage). FSR 402 in a 10 kΩ divider: about 10 kΩ at 100 g, so ≈ 1 µS per gram.
    public var typicalSignalPerGram: Double {
        switch self {
        case .loadCell: 2147
        case .fsr: 1
        }
    }
}
