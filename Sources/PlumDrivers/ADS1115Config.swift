public import PlumHardware

/// The ADS1115 Config register (pointer 01b) as typed fields, without the OS bit.
///
/// Mirrors SBAS444 §9.6.3 "Config Register (P[1:0] = 1h) [reset = 8583h]": MUX[14:12],
/// PGA[11:9], MODE[8], DR[7:5], COMP_MODE[4], COMP_POL[3], COMP_LAT[2], COMP_QUE[1:0].
/// OS[15] is not a setting but a command (write 1: start a single shot) and a status
/// (read 0: converting), so the driver adds it on the wire and reports it separately.
public struct ADS1115Config: Hashable, Sendable, CustomStringConvertible {
    public var mux: Mux
    public var gain: ProgrammableGain
    public var mode: Mode
    public var dataRate: DataRate
    public var comparatorMode: ComparatorMode
    public var comparatorPolarity: ComparatorPolarity
    public var comparatorLatch: ComparatorLatch
    public var comparatorQueue: ComparatorQueue

    /// The power-on values (8583h without OS): AIN0−AIN1, ±2.048 V, single-shot, 128 SPS,
    /// comparator disabled.
    public init(
        mux: Mux = .ain0MinusAin1, gain: ProgrammableGain = .volts2_048, mode: Mode = .singleShot,
        dataRate: DataRate = .sps128, comparatorMode: ComparatorMode = .traditional,
        comparatorPolarity: ComparatorPolarity = .activeLow,
        comparatorLatch: ComparatorLatch = .nonLatching, comparatorQueue: ComparatorQueue = .disabled
    ) {
        self.mux = mux
        self.gain = gain
        self.mode = mode
        self.dataRate = dataRate
        self.comparatorMode = comparatorMode
        self.comparatorPolarity = comparatorPolarity
        self.comparatorLatch = comparatorLatch
        self.comparatorQueue = comparatorQueue
    }

    /// Decodes a Config register value; OS[15] is ignored. PGA codes 110b and 111b both mean
    /// ±0.256 V (SBAS444 Table 8), so they decode to ``ProgrammableGain/volts0_256``.
    public init(registerValue: UInt16) {
        // Every masked field value is a case, so the fallbacks are never taken.
        mux = Mux(rawValue: (registerValue >> 12) & 0x7) ?? .ain0MinusAin1
        gain = ProgrammableGain(rawValue: min((registerValue >> 9) & 0x7, 5)) ?? .volts0_256
        mode = Mode(rawValue: (registerValue >> 8) & 0x1) ?? .singleShot
        dataRate = DataRate(rawValue: (registerValue >> 5) & 0x7) ?? .sps128
        comparatorMode = ComparatorMode(rawValue: (registerValue >> 4) & 0x1) ?? .traditional
        comparatorPolarity = ComparatorPolarity(rawValue: (registerValue >> 3) & 0x1) ?? .activeLow
        comparatorLatch = ComparatorLatch(rawValue: (registerValue >> 2) & 0x1) ?? .nonLatching
        comparatorQueue = ComparatorQueue(rawValue: registerValue & 0x3) ?? .disabled
    }

    /// The register value with OS[15] = 0.
    public var registerValue: UInt16 {
        mux.rawValue << 12 | gain.rawValue << 9 | mode.rawValue << 8 | dataRate.rawValue << 5
            | comparatorMode.rawValue << 4 | comparatorPolarity.rawValue << 3
            | comparatorLatch.rawValue << 2 | comparatorQueue.rawValue
    }

    /// OS[15]: written as 1 it starts a single-shot conversion from power-down; read as 1 it
    /// means no conversion is in progress.
    public static let operationalStatusBit: UInt16 = 0x8000

    /// "AIN0, ±4.096 V, 128 SPS".
    public var description: String {
        "\(mux), \(gain), \(dataRate)" + (mode == .continuous ? " continuous" : "")
    }

    /// The four I2C addresses the ADDR pin selects (SBAS444 Table 4): GND, VDD, SDA, SCL.
    public static let addresses: ClosedRange<UInt8> = 0x48...0x4B

    /// Checks a configured I2C address.
    /// - Throws: ``InvalidValue`` naming the four addresses the ADDR pin can select.
    public static func validateAddress(_ address: Int) throws(InvalidValue) -> UInt8 {
        guard address >= 0x48, address <= 0x4B else {
            throw InvalidValue(
                field: "address", value: "0x" + String(address, radix: 16),
                expected: "0x48 (ADDR to GND), 0x49 (VDD), 0x4a (SDA) or 0x4b (SCL)")
        }
        return UInt8(address)
    }

    /// A configuration value that names no ADS1115 setting.
    public struct InvalidValue: Error, Hashable, Sendable, CustomStringConvertible {
        /// The setting, such as "data rate".
        public var field: String
        /// The value as given.
        public var value: String
        /// The values the chip accepts.
        public var expected: String

        public init(field: String, value: String, expected: String) {
            self.field = field
            self.value = value
            self.expected = expected
        }

        public var description: String { "ads1115 \(field) \(value) is not supported; use \(expected)" }
    }
}

extension ADS1115Config {
    /// MUX[14:12]: which inputs the ADC measures (SBAS444 §9.3.1, Table 8).
    public enum Mux: UInt16, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case ain0MinusAin1 = 0b000
        case ain0MinusAin3 = 0b001
        case ain1MinusAin3 = 0b010
        case ain2MinusAin3 = 0b011
        /// AIN0 against GND (single-ended).
        case ain0 = 0b100
        case ain1 = 0b101
        case ain2 = 0b110
        case ain3 = 0b111

        /// The input on AINP, 0...3.
        public var positiveInput: Int {
            switch self {
            case .ain0MinusAin1, .ain0MinusAin3, .ain0: 0
            case .ain1MinusAin3, .ain1: 1
            case .ain2MinusAin3, .ain2: 2
            case .ain3: 3
            }
        }

        /// The input on AINN, or `nil` for GND (single-ended).
        public var negativeInput: Int? {
            switch self {
            case .ain0MinusAin1: 1
            case .ain0MinusAin3, .ain1MinusAin3, .ain2MinusAin3: 3
            case .ain0, .ain1, .ain2, .ain3: nil
            }
        }

        /// The single-ended setting for input 0...3.
        /// - Throws: ``InvalidValue`` when `input` is not 0...3.
        public init(singleEnded input: Int) throws(InvalidValue) {
            guard (0...3).contains(input) else {
                throw InvalidValue(field: "channel", value: String(input), expected: "AIN0, AIN1, AIN2 or AIN3 (0...3)")
            }
            self = [Mux.ain0, .ain1, .ain2, .ain3][input]
        }

        /// Parses "AIN0" … "AIN3" and the pairs "AIN0-AIN1", "AIN0-AIN3", "AIN1-AIN3", "AIN2-AIN3".
        /// - Throws: ``InvalidValue`` listing the accepted names.
        public init(name: String) throws(InvalidValue) {
            let key = String(name.uppercased().filter { $0 != " " })
            guard let mux = Mux.allCases.first(where: { $0.description == key }) else {
                throw InvalidValue(
                    field: "channel", value: "'\(name)'",
                    expected: "AIN0, AIN1, AIN2, AIN3, AIN0-AIN1, AIN0-AIN3, AIN1-AIN3 or AIN2-AIN3")
            }
            self = mux
        }

        /// "AIN0" or "AIN0-AIN1".
        public var description: String {
            negativeInput.map { "AIN\(positiveInput)-AIN\($0)" } ?? "AIN\(positiveInput)"
        }
    }

    /// PGA[11:9]: the full-scale range (SBAS444 §9.3.3, Table 3).
    ///
    /// The range never lets an input exceed VDD + 0.3 V: ±6.144 V and ±4.096 V only say how
    /// codes scale, not that such voltages may be applied.
    public enum ProgrammableGain: UInt16, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case volts6_144 = 0b000
        case volts4_096 = 0b001
        case volts2_048 = 0b010
        case volts1_024 = 0b011
        case volts0_512 = 0b100
        case volts0_256 = 0b101

        /// The positive full-scale voltage: codes span ±this.
        public var fullScaleVolts: Double {
            switch self {
            case .volts6_144: 6.144
            case .volts4_096: 4.096
            case .volts2_048: 2.048
            case .volts1_024: 1.024
            case .volts0_512: 0.512
            case .volts0_256: 0.256
            }
        }

        /// One code in volts: FSR / 2^15 (187.5 µV at ±6.144 V … 7.8125 µV at ±0.256 V).
        public var lsbVolts: Double { fullScaleVolts / 32768 }

        /// Parses a full-scale voltage such as 4.096.
        /// - Throws: ``InvalidValue`` listing the six ranges.
        public init(fullScaleVolts: Double) throws(InvalidValue) {
            guard let gain = ProgrammableGain.allCases.first(where: { abs($0.fullScaleVolts - fullScaleVolts) < 1e-6 })
            else {
                throw InvalidValue(
                    field: "full-scale range", value: "\(fullScaleVolts) V",
                    expected: "6.144, 4.096, 2.048, 1.024, 0.512 or 0.256 (volts)")
            }
            self = gain
        }

        /// "±4.096 V".
        public var description: String { "±\(fullScaleVolts) V" }
    }

    /// MODE[8]: continuous conversion or single-shot with power-down (SBAS444 §9.4.2).
    public enum Mode: UInt16, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case continuous = 0
        case singleShot = 1

        public var description: String { self == .continuous ? "continuous" : "single-shot" }
    }

    /// DR[7:5]: the output data rate (SBAS444 §9.3.6). The internal oscillator sets it to
    /// within ±10 % (SBAS444 §7.5, "Data rate variation").
    public enum DataRate: UInt16, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case sps8 = 0b000
        case sps16 = 0b001
        case sps32 = 0b010
        case sps64 = 0b011
        case sps128 = 0b100
        case sps250 = 0b101
        case sps475 = 0b110
        case sps860 = 0b111

        public var samplesPerSecond: Int {
            switch self {
            case .sps8: 8
            case .sps16: 16
            case .sps32: 32
            case .sps64: 64
            case .sps128: 128
            case .sps250: 250
            case .sps475: 475
            case .sps860: 860
            }
        }

        /// The nominal conversion time, 1 / DR, rounded up to the nanosecond.
        public var nominalConversionNanoseconds: UInt64 {
            (1_000_000_000 + UInt64(samplesPerSecond) - 1) / UInt64(samplesPerSecond)
        }

        /// The longest a conversion can take with the oscillator 10 % slow, as the kernel's
        /// ti-ads1015 driver allows for ("10% internal clock inaccuracy").
        public var slowestConversionNanoseconds: UInt64 {
            nominalConversionNanoseconds + nominalConversionNanoseconds / 10
        }

        /// The shortest a conversion can take with the oscillator 10 % fast.
        public var fastestConversionNanoseconds: UInt64 {
            nominalConversionNanoseconds - nominalConversionNanoseconds / 10
        }

        /// Parses a rate such as 128.
        /// - Throws: ``InvalidValue`` listing the eight rates.
        public init(samplesPerSecond: Int) throws(InvalidValue) {
            guard let rate = DataRate.allCases.first(where: { $0.samplesPerSecond == samplesPerSecond }) else {
                throw InvalidValue(
                    field: "data rate", value: "\(samplesPerSecond) SPS",
                    expected: "8, 16, 32, 64, 128, 250, 475 or 860 (samples per second)")
            }
            self = rate
        }

        /// "128 SPS".
        public var description: String { "\(samplesPerSecond) SPS" }
    }

    /// COMP_MODE[4]: traditional (hysteresis) or window comparator (SBAS444 §9.3.7).
    public enum ComparatorMode: UInt16, CaseIterable, Hashable, Sendable {
        case traditional = 0
        case window = 1
    }

    /// COMP_POL[3]: the ALERT/RDY pin's asserted level. Active low (the default) suits the
    /// open-drain pin with a pull-up: asserting is a falling edge.
    public enum ComparatorPolarity: UInt16, CaseIterable, Hashable, Sendable {
        case activeLow = 0
        case activeHigh = 1

        /// The edge on ALERT/RDY that marks an assertion (a finished conversion in RDY mode).
        public var assertingEdge: EdgeKind { self == .activeLow ? .falling : .rising }
    }

    /// COMP_LAT[2]: whether an asserted ALERT stays asserted until the Conversion register is
    /// read or an SMBus alert response is sent.
    public enum ComparatorLatch: UInt16, CaseIterable, Hashable, Sendable {
        case nonLatching = 0
        case latching = 1
    }

    /// COMP_QUE[1:0]: assert after one, two or four conversions beyond the thresholds, or
    /// disable the comparator and leave ALERT/RDY high-impedance (11b, the reset value). The
    /// conversion-ready function needs any value but 11b (SBAS444 §9.3.8).
    public enum ComparatorQueue: UInt16, CaseIterable, Hashable, Sendable {
        case assertAfterOne = 0b00
        case assertAfterTwo = 0b01
        case assertAfterFour = 0b10
        case disabled = 0b11
    }

}
