package import PlumHardware

/// A device that can be read one byte with no register: SMBus receive byte (SMBus 3.x §6.5.3).
///
/// The display probe asks nothing else. A register read (`readByte(register:)`) first writes
/// the register pointer, and a PCF8574 takes any byte written to it as its new port: the LCD's
/// backlight, enable and data lines would change. A quick write is a write to some chips too.
package protocol SMBusReceiving {
    /// SMBus receive byte: the device's next byte, with nothing written before it.
    func receiveByte() throws(HardwareError) -> UInt8
}

extension I2CDevice: SMBusReceiving {}

/// What answered at an address where a small display's I2C chip sits, found by reading only.
///
/// An SSD1306 OLED answers at 3Ch or 3Dh (SSD1306 datasheet §8.1.5: SA0 selects the address)
/// and returns its status byte; an HD44780 LCD's PCF8574 backpack answers at 20h–27h (PCF8574)
/// or 38h–3Fh (PCF8574A), A0–A2 choosing among them (NXP PCF8574 §7.1), and returns its port.
/// Another chip can sit at any of these addresses, and a PCF8574A can be strapped to 3Ch, so a
/// finding says what the device *likely* is, never more.
package struct I2CDisplayFinding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The PCF8574's addresses (A2–A0 = 000 … 111).
    package static let pcf8574Addresses: ClosedRange<UInt8> = 0x20...0x27
    /// The PCF8574A's addresses, which include the SSD1306's two.
    package static let pcf8574AAddresses: ClosedRange<UInt8> = 0x38...0x3F
    /// The SSD1306's addresses: SA0 low 3Ch, high 3Dh.
    package static let ssd1306Addresses: [UInt8] = [0x3C, 0x3D]
    /// Every address looked at, in order.
    package static let addresses = Array(pcf8574Addresses) + Array(pcf8574AAddresses)

    package var bus: Int?
    package var address: UInt8
    package var state: State
    /// The byte the device sent: an SSD1306's status, a PCF8574's port.
    package var byte: UInt8?
    /// Why the read failed, for ``State/error``.
    package var error: String?

    package enum State: String, Hashable, Sendable, Encodable {
        /// Something answers at 3Ch or 3Dh: an SSD1306-class OLED, likely.
        case ssd1306Likely = "ssd1306-likely"
        /// Something answers at 20h–27h or 38h–3Fh (but 3Ch, 3Dh): a PCF8574 LCD backpack, likely.
        case pcf8574Likely = "pcf8574-likely"
        /// No acknowledge: nothing at the address.
        case absent
        /// A kernel driver has claimed the address (EBUSY): a panel there is the kernel's.
        case kernelDriver = "kernel-driver"
        /// The bus failed otherwise.
        case error
    }

    package init(bus: Int?, address: UInt8, state: State, byte: UInt8? = nil, error: String? = nil) {
        self.bus = bus
        self.address = address
        self.state = state
        self.byte = byte
        self.error = error
    }

    /// What a device that answers at `address` likely is.
    package static func likely(at address: UInt8) -> State {
        ssd1306Addresses.contains(address) ? .ssd1306Likely : .pcf8574Likely
    }

    /// The configuration's `[display] kind` for what was found; nil when nothing usable answered.
    package var displayKind: String? {
        switch state {
        case .ssd1306Likely: "ssd1306"
        case .pcf8574Likely: "hd44780"
        case .absent, .kernelDriver, .error: nil
        }
    }

    /// What answered, in words: "SSD1306-class OLED (likely)"; nil when nothing usable did.
    package var likelyDevice: String? {
        switch state {
        case .ssd1306Likely: "SSD1306-class OLED (likely)"
        case .pcf8574Likely: "PCF8574 backpack (HD44780 LCD likely)"
        case .absent, .kernelDriver, .error: nil
        }
    }

    /// Reads one byte at one address with SMBus receive byte; `open` makes the device (i2c-dev, or
    /// a model).
    ///
    /// ENXIO, EREMOTEIO and ENODEV mean nothing is there (as for ``ADS1115Finding``); EBUSY that
    /// a kernel driver (ssd1307fb, ssd130x, a PCF8574 GPIO driver) has claimed the address.
    package static func probe<Device: SMBusReceiving>(
        bus: Int?, address: UInt8, open: (UInt8) throws(HardwareError) -> Device
    ) -> I2CDisplayFinding {
        do throws(HardwareError) {
            let device = try open(address)
            let byte = try device.receiveByte()
            return I2CDisplayFinding(bus: bus, address: address, state: likely(at: address), byte: byte)
        } catch {
            switch error.errno {
            case Errno.noSuchDeviceOrAddress?, Errno.remoteIOError?, Errno.noSuchDevice?:
                return I2CDisplayFinding(bus: bus, address: address, state: .absent)
            case Errno.deviceBusy?:
                return I2CDisplayFinding(bus: bus, address: address, state: .kernelDriver)
            default:
                return I2CDisplayFinding(bus: bus, address: address, state: .error, error: error.description)
            }
        }
    }

    /// Every display address on one bus (``addresses``).
    package static func scan<Device: SMBusReceiving>(
        bus: Int?, open: (UInt8) throws(HardwareError) -> Device
    ) -> [I2CDisplayFinding] {
        addresses.map { probe(bus: bus, address: $0, open: open) }
    }

    /// Every display address on a real bus, through i2c-dev.
    package static func scan(_ bus: I2CBusFinding) -> [I2CDisplayFinding] {
        scan(bus: bus.number) { (address: UInt8) throws(HardwareError) -> I2CDevice in try bus.device(at: address) }
    }

    /// "i2c-1 0x3c: SSD1306-class OLED (likely), answers with 43h".
    package var description: String {
        let place = I2CBusFinding.place(bus: bus, address: address)
        switch state {
        case .ssd1306Likely, .pcf8574Likely:
            let answer = byte.map { ", answers with " + Self.hex($0) } ?? ""
            return "\(place): \(likelyDevice ?? "")\(answer); kind = \"\(displayKind ?? "")\""
        case .absent:
            return "\(place): nothing answers"
        case .kernelDriver:
            return "\(place): a kernel driver owns the address (EBUSY); a panel there is drawn by the kernel "
                + "(see the framebuffers), or unbind the driver"
        case .error:
            return "\(place): \(error ?? "error")"
        }
    }

    /// A byte as the datasheets write it: "43h", "0Fh".
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return (digits.count == 1 ? "0" : "") + digits + "h"
    }
}
