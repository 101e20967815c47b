public import PlumHardware

/// A fault a simulated I2C device injects into its SMBus transfers, failing them the way
/// i2c-dev fails them on a real bus.
public enum I2CFault: Hashable, Sendable {
    /// The device does not acknowledge its address (missing, unpowered, wrong address): every
    /// transfer fails. The kernel's `Documentation/i2c/fault-codes.rst` names ENXIO for an
    /// address NAK; the Pi's i2c-bcm2835 reports EREMOTEIO instead, so the errno can be chosen.
    case noAcknowledge(errno: Errno = .noSuchDeviceOrAddress)
    /// The next `count` transfers fail with EIO (a glitch: noise, a marginal pull-up), then
    /// the bus works again.
    case transientIOError(count: Int)

    /// The fault state of one simulated device: which faults are active, and the errors they
    /// raise, worded as a real bus words them.
    public struct Injector: Hashable, Sendable {
        public let busNumber: Int
        public let address: UInt8
        /// The device not acknowledging, with the errno it fails with.
        public private(set) var noAcknowledge: Errno?
        /// Transfers left to fail with EIO.
        public private(set) var transientFailuresLeft = 0

        public init(busNumber: Int, address: UInt8) {
            self.busNumber = busNumber
            self.address = address
        }

        /// "i2c-1 address 0x48", as the real I2C device names itself.
        public var subject: String {
            let hex = String(address, radix: 16)
            return "i2c-\(busNumber) address 0x\(hex.count < 2 ? "0" + hex : hex)"
        }

        public mutating func inject(_ fault: I2CFault) {
            switch fault {
            case .noAcknowledge(let errno): noAcknowledge = errno
            case .transientIOError(let count): transientFailuresLeft = max(0, count)
            }
        }

        /// Removes every fault: the device answers again.
        public mutating func clear() {
            noAcknowledge = nil
            transientFailuresLeft = 0
        }

        /// Fails the transfer about to happen if a fault says so.
        ///
        /// The words are those of PlumHardware's `I2CDevice` over i2c-dev, so a simulated
        /// fault reads exactly like a real one:
        ///
        ///     reading word 0x01 at i2c-1 address 0x48: No such device or address (ENXIO);
        ///     no device answered; check wiring, power and the address with i2cdetect -y 1
        ///
        /// - Parameter operation: the transfer in words, such as "reading word 0x01 at".
        /// - Throws: the ``HardwareError`` a real i2c-dev transfer would raise.
        public mutating func check(operation: String) throws(HardwareError) {
            if let errno = noAcknowledge {
                throw HardwareError(
                    .systemCall, operation: operation, subject: subject, errno: errno,
                    hint: "no device answered; check wiring, power and the address with i2cdetect -y \(busNumber)")
            }
            if transientFailuresLeft > 0 {
                transientFailuresLeft -= 1
                throw HardwareError(
                    .systemCall, operation: operation, subject: subject, errno: .ioError,
                    hint: "the transfer failed on the bus; check wiring, pull-ups and power")
            }
        }
    }
}
