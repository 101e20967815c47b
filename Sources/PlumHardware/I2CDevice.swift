internal import CPlumShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One device on an I2C bus, through the kernel's i2c-dev interface and libi2c.
///
/// Opens `/dev/i2c-N`, selects the target with `ioctl(I2C_SLAVE)` and transfers with libi2c's
/// `i2c_smbus_*` functions (SMBus 3.x §6.5: read/write byte data, word data, I2C block data).
/// The descriptor is closed when the device is deinitialised.
///
/// `@unchecked Sendable`: the state is an immutable file descriptor; the kernel serialises
/// transfers on the bus. Two threads sharing one device still interleave their register
/// accesses, so drivers keep a device on their sampler thread.
public final class I2CDevice: SMBusDevice, @unchecked Sendable {
    public let bus: I2CBusSpec
    public let address: I2CAddress
    /// "i2c-1 address 0x48", for messages.
    public let subject: String
    private let fd: Int32

    /// Opens the bus and selects the device's address.
    /// - Throws: ``HardwareError``: ENOENT says how to enable I2C, EBUSY that a kernel driver
    ///   owns the address, ENOTTY that the path is not an I2C bus.
    public init(bus: I2CBusSpec, address: I2CAddress) throws(HardwareError) {
        self.bus = bus
        self.address = address
        self.subject = "\(bus) address \(address)"
        switch Syscalls.openFile(bus.path, flags: O_RDWR) {
        case .success(let fd): self.fd = fd
        case .failure(let errno): throw HardwareError.i2cBusOpen(path: bus.path, errno: errno)
        }
        if case .failure(let errno) = Syscalls.i2cSetAddress(fd, UInt16(address.rawValue)) {
            // No close here: every stored property is set, so the failed init runs deinit,
            // which closes `fd`. A second close could hit a descriptor that another thread (a
            // client socket in the daemon) was given the same number meanwhile.
            throw HardwareError.i2cTransfer(
                operation: "selecting", subject: subject, busNumber: bus.number, errno: errno)
        }
    }

    deinit { Syscalls.closeFile(fd) }

    public func readByte(register: UInt8) throws(HardwareError) -> UInt8 {
        try check(Syscalls.i2cReadByte(fd, register: register), "reading byte", register)
    }

    /// SMBus receive byte (`i2c_smbus_read_byte`): one byte read with no register pointer written
    /// first, so the device is only read. A PCF8574 returns its port, an SSD1306 its status byte.
    public func receiveByte() throws(HardwareError) -> UInt8 {
        switch Syscalls.i2cReceiveByte(fd) {
        case .success(let value): return value
        case .failure(let errno):
            throw HardwareError.i2cTransfer(
                operation: "receiving a byte at", subject: subject, busNumber: bus.number, errno: errno)
        }
    }

    public func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) {
        try check(Syscalls.i2cWriteByte(fd, register: register, value), "writing byte", register)
    }

    /// SMBus read word data: the first byte on the wire is the low byte of the result.
    public func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
        try check(Syscalls.i2cReadWord(fd, register: register), "reading word", register)
    }

    /// SMBus write word data: the low byte of `value` goes on the wire first.
    public func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        try check(Syscalls.i2cWriteWord(fd, register: register, value), "writing word", register)
    }

    /// I2C block read (`i2c_smbus_read_i2c_block_data`) of 1…32 bytes.
    public func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        try checkLength(count, "reading block", register)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try check(
            bytes.withUnsafeMutableBufferPointer { Syscalls.i2cReadBlock(fd, register: register, into: $0) },
            "reading block", register)
        guard read == count else {
            throw HardwareError(
                .malformed, operation: "reading block \(I2CAddress.hex(Int(register))) from", subject: subject,
                detail: "\(read) of \(count) bytes arrived", hint: "check wiring and pull-ups")
        }
        return bytes
    }

    /// I2C block write (`i2c_smbus_write_i2c_block_data`) of 1…32 bytes.
    public func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        try checkLength(bytes.count, "writing block", register)
        try check(Syscalls.i2cWriteBlock(fd, register: register, bytes), "writing block", register)
    }

    private func checkLength(_ count: Int, _ operation: String, _ register: UInt8) throws(HardwareError) {
        guard (1...32).contains(count) else {
            throw HardwareError(
                .invalidRequest, operation: "\(operation) \(I2CAddress.hex(Int(register))) of", subject: subject,
                detail: "\(count) bytes", hint: "an SMBus block is 1 to 32 bytes; split longer transfers")
        }
    }

    @inline(__always) @discardableResult
    private func check<T>(_ result: Result<T, Errno>, _ operation: String, _ register: UInt8) throws(HardwareError) -> T
    {
        switch result {
        case .success(let value): return value
        case .failure(let errno):
            throw HardwareError.i2cTransfer(
                operation: "\(operation) \(I2CAddress.hex(Int(register))) at", subject: subject,
                busNumber: bus.number, errno: errno)
        }
    }
}

extension Syscalls {
    /// `plum_i2c_receive_byte` (libi2c's `i2c_smbus_read_byte`).
    fileprivate static func i2cReceiveByte(_ fd: Int32) -> Result<UInt8, Errno> {
        retrying { plum_i2c_receive_byte(fd) }.map { UInt8(truncatingIfNeeded: $0) }
    }
}
