/// The HX711 input channel and gain, named by the PD_SCK pulse count that selects it.
///
/// Mirrors the datasheet's "Input and gain selection" table (Avia HX711, section "Serial
/// Interface", Table 3): after the 24 data bits the driver gives 1, 2 or 3 more PD_SCK pulses,
/// 25, 26 or 27 in total, and the count selects the input and gain of the *next* conversion.
/// The raw value is that total pulse count.
public enum HX711Gain: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Channel A, gain 128: 25 pulses. Full scale ±20 mV at AVDD 5 V. The power-up default.
    case channelA128 = 25
    /// Channel B, gain 32 (fixed on channel B): 26 pulses. Full scale ±80 mV at AVDD 5 V.
    case channelB32 = 26
    /// Channel A, gain 64: 27 pulses. Full scale ±40 mV at AVDD 5 V.
    case channelA64 = 27

    /// The PGA gain.
    public var gain: Int {
        switch self {
        case .channelA128: 128
        case .channelB32: 32
        case .channelA64: 64
        }
    }

    /// The input channel, "A" or "B".
    public var channel: Character { self == .channelB32 ? "B" : "A" }

    /// PD_SCK pulses after the 24 data bits: 1, 2 or 3.
    public var extraPulses: Int { Int(rawValue) - 24 }

    /// Total PD_SCK pulses in one read: 25, 26 or 27.
    public var totalPulses: Int { Int(rawValue) }

    /// "channel A gain 128".
    public var description: String { "channel \(channel) gain \(gain)" }

    /// The short name used in configuration files: "A128", "B32" or "A64".
    public var shortName: String { "\(channel)\(gain)" }

    /// Parses a configuration value: "A128", "B32" or "A64" (any case); a bare gain
    /// ("128", "32", "64") names its only channel.
    /// - Throws: ``HX711ConfigurationError`` naming the accepted values.
    public init(parsing text: String) throws(HX711ConfigurationError) {
        let key = Self.trimmed(text).uppercased()
        switch key {
        case "A128", "128": self = .channelA128
        case "B32", "32": self = .channelB32
        case "A64", "64": self = .channelA64
        default:
            throw HX711ConfigurationError(
                setting: "gain", value: text,
                problem: "is not an HX711 input and gain",
                hint: "use \"A128\" (channel A, gain 128), \"A64\" (channel A, gain 64) or \"B32\" (channel B, gain 32)"
            )
        }
    }

    /// The text without leading and trailing spaces and tabs (no Foundation needed).
    private static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }
}
