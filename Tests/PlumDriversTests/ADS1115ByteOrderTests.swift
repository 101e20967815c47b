import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 byte order on the wire")
struct ADS1115ByteOrderTests {
    @Test("a Config write goes on the wire MSB first and lands unswapped in the chip")
    func configWriteIsMSBFirst() throws {
        let bench = ADS1115Bench()
        var chip = bench.polling()
        try chip.write(.config, 0x4283)
        let wire = try #require(bench.model.lastTransfer)
        #expect(wire.direction == .write)
        #expect(wire.command == 0x01)
        #expect(wire.bytes == [0x42, 0x83])
        #expect(bench.model.registerValue(.config) & 0x7FFF == 0x4283)
    }

    @Test("the raw SMBus word has the chip's first byte (the MSB) in its low 8 bits, and the driver undoes it")
    func rawWordIsSwapped() throws {
        // 1.024 V is half of ±2.048 V: code 4000h.
        let bench = ADS1115Bench(inputs: [1.024, 0, 0, 0])
        var chip = bench.polling()
        let conversion = try chip.read(ADS1115Config(mux: .ain0, gain: .volts2_048))
        #expect(conversion.code == 0x4000)
        let raw = try bench.model.readWord(register: ADS1115Register.conversion.rawValue)
        let wire = try #require(bench.model.lastTransfer)
        #expect(wire.bytes == [0x40, 0x00], "the chip sends D[15:8] first")
        #expect(raw == 0x0040, "i2c_smbus_read_word_data puts the first byte received in the low byte")
        #expect(try bench.model.readBigEndianWord(register: 0x00) == 0x4000)
    }

    @Test("power-on Config 8583h reads as 8583h through the driver, 8385h as a raw SMBus word")
    func powerOnConfigBothWays() throws {
        let bench = ADS1115Bench()
        var chip = bench.polling()
        #expect(try chip.read(.config) == 0x8583)
        #expect(try bench.model.readWord(register: 0x01) == 0x8385)
    }
}
