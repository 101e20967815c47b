import Foundation
import PlumHardware
import PlumProbe
import Testing

/// A bus of fake devices that answer a received byte at given addresses and count every other
/// transfer: a register read writes its pointer first, so it counts as a write too.
final class CountingBus {
    /// The byte each present device sends.
    var bytes: [UInt8: UInt8]
    /// Addresses whose open fails (a kernel driver's EBUSY, say).
    var openErrors: [UInt8: Errno] = [:]
    /// The errno of an address NAK on this bus (EREMOTEIO on the Pi).
    var absentErrno = Errno.remoteIOError
    private(set) var receives: [UInt8] = []
    /// Writes, and register reads (which write the pointer): a probe must make none.
    private(set) var writes: [String] = []

    init(_ bytes: [UInt8: UInt8]) { self.bytes = bytes }

    func open(_ address: UInt8) throws(HardwareError) -> Device {
        if let errno = openErrors[address] {
            throw HardwareError(
                .systemCall, operation: "selecting", subject: "i2c-1 address 0x\(String(address, radix: 16))",
                errno: errno)
        }
        return Device(bus: self, address: address)
    }

    struct Device: SMBusDevice, SMBusReceiving {
        let bus: CountingBus
        let address: UInt8
        var subject: String { "fake address \(address)" }

        func receiveByte() throws(HardwareError) -> UInt8 {
            bus.receives.append(address)
            guard let byte = bus.bytes[address] else {
                throw HardwareError(.systemCall, operation: "receiving at", subject: subject, errno: bus.absentErrno)
            }
            return byte
        }

        private func written(_ what: String) throws(HardwareError) {
            bus.writes.append("\(what) at \(address)")
            throw HardwareError(.systemCall, operation: what, subject: subject, errno: .operationNotPermitted)
        }

        func readByte(register: UInt8) throws(HardwareError) -> UInt8 {
            try written("read byte \(register)")
            return 0
        }
        func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) { try written("write byte") }
        func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
            try written("read word \(register)")
            return 0
        }
        func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) { try written("write word") }
        func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
            try written("read block \(register)")
            return []
        }
        func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) { try written("write block") }
    }
}

/// The display scan over fake buses: an OLED and an LCD backpack are told apart by their
/// address alone, and nothing is ever written, not even a register pointer.
@Suite("Displays on I2C found with a received byte only")
struct I2CDisplayFindingTests {
    @Test("an SSD1306 at 0x3C and a PCF8574 at 0x27 are found, one byte read at each address, nothing written")
    func scanWritesNothing() {
        let bus = CountingBus([0x3C: 0x43, 0x27: 0xFF])
        let found = I2CDisplayFinding.scan(bus: 1, open: bus.open)
        #expect(bus.writes.isEmpty, "\(bus.writes)")
        #expect(bus.receives == Array(0x20...0x27) + Array(0x38...0x3F), "one receive byte at each address")
        let answered = found.filter { $0.state != .absent }
        #expect(answered.map(\.address) == [0x27, 0x3C])
        #expect(answered.map(\.state) == [.pcf8574Likely, .ssd1306Likely])
        #expect(answered.map(\.byte) == [0xFF, 0x43])
        #expect(answered.map(\.displayKind) == ["hd44780", "ssd1306"])
        #expect(
            answered.map(\.description) == [
                "i2c-1 0x27: PCF8574 backpack (HD44780 LCD likely), answers with FFh; kind = \"hd44780\"",
                "i2c-1 0x3c: SSD1306-class OLED (likely), answers with 43h; kind = \"ssd1306\""
            ])
    }

    struct AddressCase: Sendable, CustomTestStringConvertible {
        var address: UInt8
        var state: I2CDisplayFinding.State
        var testDescription: String { "0x" + String(address, radix: 16) + ": \(state.rawValue)" }
    }

    /// The brief's table, written out: 3Ch and 3Dh an OLED, the rest of both PCF8574 ranges a backpack.
    static let addressCases: [AddressCase] =
        [0x3C, 0x3D].map { AddressCase(address: $0, state: .ssd1306Likely) }
        + [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x38, 0x39, 0x3A, 0x3B, 0x3E, 0x3F].map {
            AddressCase(address: $0, state: .pcf8574Likely)
        }

    @Test(
        "what answers is named by its address: 0x3C/0x3D an OLED, 0x20-0x27 and 0x38-0x3F a backpack",
        arguments: addressCases)
    func likelyByAddress(_ example: AddressCase) {
        let bus = CountingBus([example.address: 0x00])
        let found = I2CDisplayFinding.probe(bus: 1, address: example.address, open: bus.open)
        #expect(found.state == example.state)
        #expect(found.description.contains("likely"), "never more certain than the bus can be")
        #expect(bus.writes.isEmpty)
    }

    @Test("the scan looks at the PCF8574's and PCF8574A's sixteen addresses, which hold the SSD1306's two")
    func addresses() {
        #expect(
            I2CDisplayFinding.addresses == [
                0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F
            ])
    }

    @Test(
        "an address NAK (ENXIO; EREMOTEIO on the Pi; ENODEV from i2c-stub) is nothing there",
        arguments: [Errno.noSuchDeviceOrAddress, Errno.remoteIOError, Errno.noSuchDevice])
    func absent(_ errno: Errno) {
        let bus = CountingBus([:])
        bus.absentErrno = errno
        let found = I2CDisplayFinding.probe(bus: 1, address: 0x3C, open: bus.open)
        #expect(found.state == .absent)
        #expect(found.description == "i2c-1 0x3c: nothing answers")
    }

    @Test("an address a kernel driver owns (EBUSY) says the kernel draws the panel, and reads nothing")
    func kernelDriver() {
        let bus = CountingBus([0x3C: 0x43])
        bus.openErrors[0x3C] = .deviceBusy
        let found = I2CDisplayFinding.probe(bus: 1, address: 0x3C, open: bus.open)
        #expect(found.state == .kernelDriver)
        #expect(found.displayKind == nil)
        #expect(found.description.contains("a kernel driver owns the address (EBUSY)"))
        #expect(bus.receives.isEmpty && bus.writes.isEmpty)
    }

    @Test("any other failure is an error that names the device")
    func otherError() {
        let bus = CountingBus([:])
        bus.openErrors[0x27] = .permissionDenied
        let found = I2CDisplayFinding.probe(bus: 1, address: 0x27, open: bus.open)
        #expect(found.state == .error)
        #expect(found.error?.contains("i2c-1 address 0x27") == true, "\(found.error ?? "")")
    }

    @Test("the report shows displays and framebuffers in text, and under displays and framebuffers in JSON")
    func report() throws {
        let report = HardwareReport(
            board: BoardModel(model: "Raspberry Pi 4 Model B Rev 1.4", triedFiles: []), gpioChips: [],
            i2cBuses: [I2CBusFinding(number: 1, path: "/dev/i2c-1", adapter: nil)], ads1115: [], iio: [],
            displays: [I2CDisplayFinding(bus: 1, address: 0x3C, state: .ssd1306Likely, byte: 0x43)],
            framebuffers: [
                FramebufferFinding(
                    number: 1, device: "/dev/fb1", deviceExists: true, name: "fb_ili9341", width: 320, height: 240,
                    bitsPerPixel: 16)
            ])
        let lines = report.description.split(separator: "\n").map(String.init)
        let displays = try #require(lines.firstIndex { $0.hasPrefix("Displays on I2C") })
        #expect(
            lines[displays + 1] == "  i2c-1 0x3c: SSD1306-class OLED (likely), answers with 43h; kind = \"ssd1306\"")
        #expect(lines[displays + 2] == "Framebuffers:")
        #expect(
            lines[displays + 3]
                == "  /dev/fb1 [fb_ili9341] 320x240, 16 bits per pixel: a small SPI panel, likely; "
                + "kind = \"framebuffer\", device = \"/dev/fb1\"")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(
            json.contains("\"displays\":[{\"address\":60,\"bus\":1,\"byte\":67,\"state\":\"ssd1306-likely\"}]"),
            "\(json)")
        #expect(
            json.contains(
                "\"framebuffers\":[{\"bits_per_pixel\":16,\"device\":\"\\/dev\\/fb1\",\"device_exists\":true,"
                    + "\"height\":240,\"name\":\"fb_ili9341\",\"number\":1,\"role\":\"small-panel\",\"width\":320}]"),
            "\(json)")
    }

    @Test("with no I2C bus the displays section says there was none to look on")
    func noBus() {
        let report = HardwareReport(
            board: BoardModel(model: nil, triedFiles: []), gpioChips: [], i2cBuses: [], ads1115: [], iio: [])
        #expect(report.description.contains("Displays on I2C (0x20-0x27, 0x38-0x3F, a received byte only):\n  no bus"))
        #expect(report.description.contains("Framebuffers:\n  none"))
    }
}
