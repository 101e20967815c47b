/// The HX711 output data rate, set in hardware by the RATE pin.
///
/// Mirrors the datasheet's RATE pin (pin 15): low gives 10 SPS, high gives 80 SPS with the
/// on-chip oscillator. The driver cannot change it; it must be told, because the ready timeout
/// and the settling time follow from it. Most breakout boards tie RATE low (10 SPS).
public enum HX711Rate: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// RATE low: 10 samples per second, 50 nV rms input noise at gain 128.
    case sps10 = 10
    /// RATE high: 80 samples per second, 90 nV rms input noise at gain 128.
    case sps80 = 80

    /// Samples per second.
    public var samplesPerSecond: Double { Double(rawValue) }

    /// One conversion period: 100 ms or 12.5 ms.
    public var period: Duration { .nanoseconds(1_000_000_000 / Int64(rawValue)) }

    /// The datasheet's output settling time (400 ms or 50 ms): four conversion periods.
    public var settlingTime: Duration { period * 4 }

    /// Input-referred noise at gain 128 from the datasheet's electrical characteristics, in volts rms.
    public var datasheetInputNoise: Double { self == .sps10 ? 50e-9 : 90e-9 }

    /// "10 SPS".
    public var description: String { "\(rawValue) SPS" }

    /// Parses a configuration value: 10 or 80.
    /// - Throws: ``HX711ConfigurationError`` naming the accepted values.
    public init(samplesPerSecond value: Int) throws(HX711ConfigurationError) {
        guard let rate = HX711Rate(rawValue: value) else {
            throw HX711ConfigurationError(
                setting: "rate", value: String(value),
                problem: "is not an HX711 output rate",
                hint: "use 10 (RATE pin low, most boards) or 80 (RATE pin high)")
        }
        self = rate
    }
}
