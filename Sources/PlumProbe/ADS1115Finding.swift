package import PlumHardware

/// What answered at one of the ADS1115's four addresses, found by reading only.
///
/// The probe reads the Config register (pointer 01h) and nothing else: an ADS1115 fresh from
/// power-on holds its reset value 8583h there (SBAS444 §9.6.3). Writing would choose a
/// multiplexer and start conversions on a chip the user has not agreed to touch, so a chip that
/// was configured since power-on is reported as "answers, configured" rather than written back.
package struct ADS1115Finding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The Config register's pointer byte (SBAS444 §9.6.1, P[1:0] = 01).
    package static let configPointer: UInt8 = 0x01
    /// The Config register's power-on value (SBAS444 §9.6.3).
    package static let configResetValue: UInt16 = 0x8583
    /// The addresses the ADDR pin selects: GND 48h, VDD 49h, SDA 4Ah, SCL 4Bh (SBAS444 Table 4).
    package static let addresses: [UInt8] = [0x48, 0x49, 0x4A, 0x4B]

    package var bus: Int?
    package var address: UInt8
    package var state: State
    /// The Config register as read, when it could be read.
    package var config: UInt16?
    /// Why the read failed, for ``State/error``.
    package var error: String?

    package enum State: String, Hashable, Sendable, Encodable {
        /// The Config register holds 8583h: an ADS1115 as it powers up.
        case ads1115AtReset = "ads1115"
        /// Something answered with another value: an ADS1115 a program has configured, or
        /// another chip at the address.
        case answeredOtherValue = "other-value"
        /// No acknowledge: nothing at the address.
        case absent
        /// A kernel driver owns the address, or the bus failed otherwise.
        case error
    }

    package init(bus: Int?, address: UInt8, state: State, config: UInt16? = nil, error: String? = nil) {
        self.bus = bus
        self.address = address
        self.state = state
        self.config = config
        self.error = error
    }

    /// Reads the Config register at one address; `open` makes the device (i2c-dev, or a model).
    ///
    /// ENXIO, EREMOTEIO and ENODEV (an address NAK as the kernel's fault codes name it, as the
    /// Pi's i2c-bcm2835 reports it, and as i2c-stub does) mean nothing is there; EBUSY that a
    /// kernel driver (ti-ads1015) has claimed the address.
    package static func probe<Device: SMBusDevice>(
        bus: Int?, address: UInt8, open: (UInt8) throws(HardwareError) -> Device
    ) -> ADS1115Finding {
        do throws(HardwareError) {
            let device = try open(address)
            let config = try device.readBigEndianWord(register: configPointer)
            return ADS1115Finding(
                bus: bus, address: address, state: config == configResetValue ? .ads1115AtReset : .answeredOtherValue,
                config: config)
        } catch {
            switch error.errno {
            case Errno.noSuchDeviceOrAddress?, Errno.remoteIOError?, Errno.noSuchDevice?:
                return ADS1115Finding(bus: bus, address: address, state: .absent)
            default:
                return ADS1115Finding(bus: bus, address: address, state: .error, error: error.description)
            }
        }
    }

    /// All four addresses on one bus.
    package static func scan<Device: SMBusDevice>(
        bus: Int?, open: (UInt8) throws(HardwareError) -> Device
    ) -> [ADS1115Finding] {
        addresses.map { probe(bus: bus, address: $0, open: open) }
    }

    /// All four addresses on a real bus, through i2c-dev.
    package static func scan(_ bus: I2CBusFinding) -> [ADS1115Finding] {
        scan(bus: bus.number) { (address: UInt8) throws(HardwareError) -> I2CDevice in try bus.device(at: address) }
    }

    /// "i2c-1 0x48: ADS1115 (Config 8583h, its power-on value)".
    package var description: String {
        let place = I2CBusFinding.place(bus: bus, address: address)
        switch state {
        case .ads1115AtReset:
            return "\(place): ADS1115 (Config 8583h, its power-on value)"
        case .answeredOtherValue:
            let value = config.map { String($0, radix: 16, uppercase: true) + "h" } ?? "?"
            return "\(place): a device answers with Config \(value), not the ADS1115's power-on 8583h "
                + "(an ADS1115 already configured since power-on, or another chip)"
        case .absent:
            return "\(place): nothing answers"
        case .error:
            return "\(place): \(error ?? "error")"
        }
    }
}

extension I2CAddress {
    /// An address from the fixed ADS1115 list, which is always in range.
    static func checked(_ value: UInt8) throws(HardwareError) -> I2CAddress {
        try I2CAddress(validating: Int(value))
    }
}
