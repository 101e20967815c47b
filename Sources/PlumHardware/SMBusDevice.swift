/// One device on an I2C bus, addressed with SMBus transfers.
///
/// Real devices (``I2CDevice`` over i2c-dev and libi2c) and register models (`PlumSimulation`)
/// both conform; drivers are generic over it.
///
/// SMBus words are little-endian on the wire: `readWord` returns the first byte the device sent
/// in its low 8 bits, exactly as `i2c_smbus_read_word_data` does. Devices that send their
/// registers most significant byte first, such as the ADS1115, use ``readBigEndianWord(register:)``
/// and ``writeBigEndianWord(register:_:)``: the swap lives there and nowhere else.
public protocol SMBusDevice {
    /// A name for messages, such as "i2c-1 address 0x48".
    var subject: String { get }
    func readByte(register: UInt8) throws(HardwareError) -> UInt8
    func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError)
    /// SMBus read word: the first byte on the wire is the low byte of the result.
    func readWord(register: UInt8) throws(HardwareError) -> UInt16
    /// SMBus write word: the low byte of `value` goes on the wire first.
    func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError)
    /// SMBus/I2C block read of `count` bytes (at most 32) starting at `register`.
    func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8]
    /// I2C block write of `bytes` (at most 32) starting at `register`.
    func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError)
}

extension SMBusDevice {
    /// Reads a 16-bit register that the device sends most significant byte first.
    @inline(__always)
    public func readBigEndianWord(register: UInt8) throws(HardwareError) -> UInt16 {
        try readWord(register: register).byteSwapped
    }

    /// Writes a 16-bit register that the device expects most significant byte first.
    @inline(__always)
    public func writeBigEndianWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        try writeWord(register: register, value.byteSwapped)
    }
}
