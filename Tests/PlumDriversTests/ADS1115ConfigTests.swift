import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// One Config field value and the bits SBAS444 Table 8 gives for it.
struct ConfigFieldCase: Sendable, CustomTestStringConvertible {
    var name: String
    var config: ADS1115Config
    /// The field's bits in place, from the datasheet.
    var bits: UInt16
    var mask: UInt16
    var testDescription: String { name }

    static let mux: [ConfigFieldCase] = [
        (ADS1115Config.Mux.ain0MinusAin1, 0b000), (.ain0MinusAin3, 0b001), (.ain1MinusAin3, 0b010),
        (.ain2MinusAin3, 0b011), (.ain0, 0b100), (.ain1, 0b101), (.ain2, 0b110), (.ain3, 0b111)
    ].map { ConfigFieldCase(name: "MUX \($0.0)", config: ADS1115Config(mux: $0.0), bits: $0.1 << 12, mask: 0x7000) }

    static let gain: [ConfigFieldCase] = [
        (ADS1115Config.ProgrammableGain.volts6_144, 0b000), (.volts4_096, 0b001), (.volts2_048, 0b010),
        (.volts1_024, 0b011), (.volts0_512, 0b100), (.volts0_256, 0b101)
    ].map { ConfigFieldCase(name: "PGA \($0.0)", config: ADS1115Config(gain: $0.0), bits: $0.1 << 9, mask: 0x0E00) }

    static let rate: [ConfigFieldCase] = [
        (ADS1115Config.DataRate.sps8, 0b000), (.sps16, 0b001), (.sps32, 0b010), (.sps64, 0b011),
        (.sps128, 0b100), (.sps250, 0b101), (.sps475, 0b110), (.sps860, 0b111)
    ].map { ConfigFieldCase(name: "DR \($0.0)", config: ADS1115Config(dataRate: $0.0), bits: $0.1 << 5, mask: 0x00E0) }

    static let others: [ConfigFieldCase] = [
        ConfigFieldCase(name: "MODE continuous", config: ADS1115Config(mode: .continuous), bits: 0, mask: 0x0100),
        ConfigFieldCase(name: "MODE single-shot", config: ADS1115Config(mode: .singleShot), bits: 0x0100, mask: 0x0100),
        ConfigFieldCase(
            name: "COMP_MODE window", config: ADS1115Config(comparatorMode: .window), bits: 0x0010, mask: 0x0010),
        ConfigFieldCase(
            name: "COMP_POL active high", config: ADS1115Config(comparatorPolarity: .activeHigh), bits: 0x0008,
            mask: 0x0008),
        ConfigFieldCase(
            name: "COMP_LAT latching", config: ADS1115Config(comparatorLatch: .latching), bits: 0x0004, mask: 0x0004),
        ConfigFieldCase(
            name: "COMP_QUE one", config: ADS1115Config(comparatorQueue: .assertAfterOne), bits: 0b00, mask: 0x0003),
        ConfigFieldCase(
            name: "COMP_QUE two", config: ADS1115Config(comparatorQueue: .assertAfterTwo), bits: 0b01, mask: 0x0003),
        ConfigFieldCase(
            name: "COMP_QUE four", config: ADS1115Config(comparatorQueue: .assertAfterFour), bits: 0b10, mask: 0x0003),
        ConfigFieldCase(
            name: "COMP_QUE disabled", config: ADS1115Config(comparatorQueue: .disabled), bits: 0b11, mask: 0x0003)
    ]

    static let all = mux + gain + rate + others
}

@Suite("ADS1115 Config register encoding")
struct ADS1115ConfigTests {
    @Test(
        "each field value lands in the datasheet's bits of the modelled chip and reads back as written",
        arguments: ConfigFieldCase.all)
    func fieldReadsBackFromModel(_ field: ConfigFieldCase) throws {
        let bench = ADS1115Bench()
        var chip = bench.polling()
        try chip.write(.config, field.config.registerValue)
        let held = bench.model.registerValue(.config)
        #expect(held & field.mask == field.bits)
        let (readBack, idle) = try chip.readConfiguration()
        #expect(readBack == field.config)
        // OS = 0 starts nothing in single-shot mode; continuous mode converts at once.
        #expect(idle == (field.config.mode == .singleShot))
    }

    @Test("the power-on value 8583h decodes to the datasheet's defaults")
    func powerOnDefaults() {
        let config = ADS1115Config(registerValue: 0x8583)
        #expect(config == ADS1115Config())
        #expect(config.mux == .ain0MinusAin1)
        #expect(config.gain == .volts2_048)
        #expect(config.mode == .singleShot)
        #expect(config.dataRate == .sps128)
        #expect(config.comparatorQueue == .disabled)
        #expect(config.registerValue == 0x0583)
    }

    @Test("PGA codes 110b and 111b decode to ±0.256 V, as Table 8 says")
    func reservedGainCodes() {
        #expect(ADS1115Config(registerValue: 0b110 << 9).gain == .volts0_256)
        #expect(ADS1115Config(registerValue: 0b111 << 9).gain == .volts0_256)
    }

    @Test("LSB size is the full-scale range over 2^15")
    func lsbSizes() {
        #expect(ADS1115Config.ProgrammableGain.volts6_144.lsbVolts == 187.5e-6)
        #expect(ADS1115Config.ProgrammableGain.volts0_256.lsbVolts == 7.8125e-6)
        for gain in ADS1115Config.ProgrammableGain.allCases {
            #expect(gain.lsbVolts * 32768 == gain.fullScaleVolts)
        }
    }

    @Test("unsupported values are refused with the accepted ones named")
    func invalidValuesExplainThemselves() {
        #expect(throws: ADS1115Config.InvalidValue.self) { try ADS1115Config.DataRate(samplesPerSecond: 100) }
        do {
            _ = try ADS1115Config.DataRate(samplesPerSecond: 100)
        } catch {
            #expect(error.description.contains("100 SPS"))
            #expect(error.description.contains("8, 16, 32, 64, 128, 250, 475 or 860"))
        }
        #expect(throws: ADS1115Config.InvalidValue.self) { try ADS1115Config.ProgrammableGain(fullScaleVolts: 5) }
        #expect(throws: ADS1115Config.InvalidValue.self) { try ADS1115Config.Mux(name: "AIN4") }
        #expect(throws: ADS1115Config.InvalidValue.self) { try ADS1115Config.Mux(singleEnded: 4) }
        #expect(throws: ADS1115Config.InvalidValue.self) { try ADS1115Config.validateAddress(0x50) }
        #expect((try? ADS1115Config.Mux(name: "ain1-ain3")) == .ain1MinusAin3)
        #expect((try? ADS1115Config.validateAddress(0x4B)) == 0x4B)
    }
}
