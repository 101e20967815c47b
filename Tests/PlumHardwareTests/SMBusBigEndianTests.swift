import PlumHardware
import Testing

/// A register file that behaves on the wire like an ADS1115: each 16-bit register is sent and
/// received most significant byte first, while SMBus word transfers put the first wire byte in
/// the low half of the word (SMBus 3.x §6.5.5, §6.5.4).
final class BigEndianRegisterFile: SMBusDevice {
    var wire: [UInt8: [UInt8]] = [:]
    let subject = "model address 0x48"

    func readByte(register: UInt8) throws(HardwareError) -> UInt8 { wire[register]?.first ?? 0 }
    func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) { wire[register] = [value] }

    func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
        let bytes = wire[register] ?? [0, 0]
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }

    func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        wire[register] = [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        Array((wire[register] ?? []).prefix(count))
    }

    func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) { wire[register] = bytes }
}

@Suite("SMBus big-endian word helpers")
struct SMBusBigEndianTests {
    static let values: [UInt16] = [0x0000, 0x0001, 0x1234, 0x7FFF, 0x8000, 0x8583, 0xFF00, 0xFFFF]

    @Test("readBigEndianWord returns the register a device sends MSB first", arguments: values)
    func read(_ value: UInt16) throws {
        let device = BigEndianRegisterFile()
        device.wire[0x00] = [UInt8(value >> 8), UInt8(value & 0xFF)]
        #expect(try device.readBigEndianWord(register: 0x00) == value)
        #expect(try device.readWord(register: 0x00) == value.byteSwapped)
    }

    @Test("writeBigEndianWord puts the most significant byte on the wire first", arguments: values)
    func write(_ value: UInt16) throws {
        let device = BigEndianRegisterFile()
        try device.writeBigEndianWord(register: 0x01, value)
        #expect(device.wire[0x01] == [UInt8(value >> 8), UInt8(value & 0xFF)])
        #expect(try device.readBigEndianWord(register: 0x01) == value)
    }

    @Test("a negative ADS1115 conversion survives the swap as the same two's-complement count")
    func signedConversion() throws {
        let device = BigEndianRegisterFile()
        device.wire[0x00] = [0xFF, 0xFE]  // −2 counts, sent MSB first
        #expect(Int16(bitPattern: try device.readBigEndianWord(register: 0x00)) == -2)
    }
}
