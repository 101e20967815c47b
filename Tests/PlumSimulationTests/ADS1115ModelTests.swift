import PlumDrivers
import PlumHardware
import PlumSimulation
import PlumTestThreads
import Testing

/// A model whose transfers take no bus time, so conversion instants are exact.
func instantModel(oscillatorError: Double = 0, seed: UInt64 = 1) -> (VirtualClock, ADS1115Model<VirtualClock>) {
    let clock = VirtualClock()
    let model = ADS1115Model(clock: clock, oscillatorError: oscillatorError, busClockHertz: nil, seed: seed)
    return (clock, model)
}

/// A data rate and an oscillator error at and inside the ±10 % limit.
struct RateCase: Sendable, CustomTestStringConvertible {
    var rate: ADS1115Config.DataRate
    var error: Double
    var testDescription: String { "\(rate), oscillator \(Int((error * 100).rounded())) %" }

    static let all = ADS1115Config.DataRate.allCases.flatMap { rate in
        [-0.1, -0.03, 0, 0.1].map { RateCase(rate: rate, error: $0) }
    }
}

@Suite("ADS1115 register model", .ownThreads)
struct ADS1115ModelTests {
    @Test("power-on registers are Config 8583h, Lo_thresh 8000h, Hi_thresh 7FFFh, Conversion 0000h")
    func powerOnDefaults() throws {
        let (_, model) = instantModel()
        #expect(try model.readBigEndianWord(register: 0x01) == 0x8583)
        #expect(try model.readBigEndianWord(register: 0x02) == 0x8000)
        #expect(try model.readBigEndianWord(register: 0x03) == 0x7FFF)
        #expect(try model.readBigEndianWord(register: 0x00) == 0x0000)
    }

    @Test("readWord returns the wire's first byte (MSB) in its low 8 bits, as i2c_smbus_read_word_data does")
    func smbusWordOrder() throws {
        let (_, model) = instantModel()
        let raw = try model.readWord(register: 0x02)
        #expect(model.lastTransfer?.bytes == [0x80, 0x00])
        #expect(raw == 0x0080)
        try model.writeWord(register: 0x03, 0x3412)
        #expect(model.lastTransfer?.bytes == [0x12, 0x34], "SMBus sends the low byte first")
        #expect(model.registerValue(.hiThresh) == 0x1234, "the chip takes the first byte as its MSB")
    }

    @Test(
        "a single shot finishes 1/DR after the Config write, stretched by the oscillator error; OS reads 0 until then",
        arguments: RateCase.all)
    func conversionTiming(_ rate: RateCase) throws {
        let (clock, model) = instantModel(oscillatorError: rate.error)
        model.noiseEnabled = false
        model.connect(ConstantVolts(1.024), to: .ain0)
        let config = ADS1115Config(mux: .ain0, dataRate: rate.rate)
        let start = clock.now()
        try model.writeBigEndianWord(register: 0x01, config.registerValue | 0x8000)
        let period = UInt64((1e9 / (Double(rate.rate.samplesPerSecond) * (1 + rate.error))).rounded())
        clock.sleep(until: start.advanced(byNanoseconds: period - 1))
        #expect(try model.readBigEndianWord(register: 0x01) & 0x8000 == 0)
        #expect(try model.readBigEndianWord(register: 0x00) == 0, "the result is not there before OS sets")
        clock.sleep(until: start.advanced(byNanoseconds: period))
        #expect(try model.readBigEndianWord(register: 0x01) & 0x8000 != 0)
        #expect(try model.readBigEndianWord(register: 0x00) == 0x4000)
    }

    @Test("OS = 1 written during a conversion is ignored")
    func osIgnoredWhileConverting() throws {
        let (clock, model) = instantModel()
        let config = ADS1115Config(mux: .ain0, dataRate: .sps8)
        try model.writeBigEndianWord(register: 0x01, config.registerValue | 0x8000)
        clock.advance(byNanoseconds: 100_000_000)
        try model.writeBigEndianWord(register: 0x01, config.registerValue | 0x8000)
        clock.advance(byNanoseconds: 25_000_000)  // 125 ms in: the first conversion has ended
        #expect(model.conversionsCompleted == 1)
        #expect(model.registerValue(.config) & 0x8000 != 0, "no second conversion was started")
    }

    @Test("codes clip at the full-scale range to 7FFFh and 8000h, and pins clamp at the supply rails")
    func clipping() throws {
        let (clock, model) = instantModel()
        model.noiseEnabled = false
        model.connect(ConstantVolts(12), to: .ain0)  // clamps to VDD + 0.3 = 3.6 V
        model.connect(ConstantVolts(0.5), to: .ain1)
        for (mux, expected) in [
            (ADS1115Config.Mux.ain0, Int16.max), (.ain1MinusAin3, Int16.max), (.ain0MinusAin1, Int16.max)
        ] {
            try model.writeBigEndianWord(
                register: 0x01, ADS1115Config(mux: mux, gain: .volts0_256).registerValue | 0x8000)
            clock.advance(byNanoseconds: 10_000_000)
            #expect(Int16(bitPattern: try model.readBigEndianWord(register: 0x00)) == expected)
        }
        try model.writeBigEndianWord(
            register: 0x01, ADS1115Config(mux: .ain1MinusAin3, gain: .volts6_144).registerValue | 0x8000)
        clock.advance(byNanoseconds: 10_000_000)
        #expect(try model.readBigEndianWord(register: 0x00) == UInt16(bitPattern: Int16((0.5 / 187.5e-6).rounded())))
        model.connect(ConstantVolts(0), to: .ain1)
        model.connect(ConstantVolts(3.3), to: .ain3)
        try model.writeBigEndianWord(
            register: 0x01, ADS1115Config(mux: .ain1MinusAin3, gain: .volts2_048).registerValue | 0x8000)
        clock.advance(byNanoseconds: 10_000_000)
        #expect(try model.readBigEndianWord(register: 0x00) == 0x8000)
    }

    /// The standard deviation of `count` continuous conversions of a steady input, in codes.
    func codeDeviation(_ rate: ADS1115Config.DataRate, seed: UInt64, count: Int = 2000) throws -> Double {
        let (clock, model) = instantModel(seed: seed)
        model.connect(ConstantVolts(1.0), to: .ain0)
        let config = ADS1115Config(mux: .ain0, gain: .volts2_048, mode: .continuous, dataRate: rate)
        try model.writeBigEndianWord(register: 0x01, config.registerValue)
        var codes: [Double] = []
        for _ in 0..<count {
            clock.advance(byNanoseconds: config.dataRate.nominalConversionNanoseconds)
            codes.append(Double(Int16(bitPattern: try model.readBigEndianWord(register: 0x00))))
        }
        let mean = codes.reduce(0, +) / Double(count)
        return (codes.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(count - 1)).squareRoot()
    }

    @Test("noise follows the datasheet's table: under a code up to 128 SPS, about 0.5 code RMS at 860 SPS on ±2.048 V")
    func noiseLevels() throws {
        // 1.0 V is the middle of code 16000. 223.46 µVpp / 6.6 = 33.9 µV RMS = 0.54 codes of
        // 62.5 µV, a little more after rounding; at 128 SPS 62.5 µVpp is 0.15 code RMS.
        let fast = try codeDeviation(.sps860, seed: 3)
        #expect(fast > 0.45 && fast < 0.75)
        let slow = try codeDeviation(.sps128, seed: 3)
        #expect(slow < 0.3)
    }

    @Test("the same seed replays the same noise")
    func seededNoise() throws {
        #expect(try codeDeviation(.sps860, seed: 9, count: 200) == codeDeviation(.sps860, seed: 9, count: 200))
        #expect(try codeDeviation(.sps860, seed: 9, count: 200) != codeDeviation(.sps860, seed: 10, count: 200))
    }

    @Test("in continuous mode the conversion in flight at a MUX change still measures the old input")
    func continuousMuxChange() throws {
        let (clock, model) = instantModel()
        model.noiseEnabled = false
        model.connect(ConstantVolts(0.5), to: .ain0)
        model.connect(ConstantVolts(1.5), to: .ain1)
        let period = ADS1115Config.DataRate.sps128.nominalConversionNanoseconds
        try model.writeBigEndianWord(register: 0x01, ADS1115Config(mux: .ain0, mode: .continuous).registerValue)
        clock.advance(byNanoseconds: period / 2)
        try model.writeBigEndianWord(register: 0x01, ADS1115Config(mux: .ain1, mode: .continuous).registerValue)
        clock.advance(byNanoseconds: period / 2 + 1)
        #expect(try model.readBigEndianWord(register: 0x00) == 8000, "AIN0: 0.5 V / 62.5 µV")
        clock.advance(byNanoseconds: period)
        #expect(try model.readBigEndianWord(register: 0x00) == 24000, "AIN1: 1.5 V / 62.5 µV")
        #expect(try model.readBigEndianWord(register: 0x01) & 0x8000 == 0, "continuous mode is always converting")
    }
}
