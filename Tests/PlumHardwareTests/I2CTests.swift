import Foundation
import Glibc
import PlumTestSupport
import Testing

@testable import PlumHardware

@Suite("I2C buses, addresses and devices")
struct I2CTests {
    struct BusCase: Sendable, CustomTestStringConvertible {
        var text: String
        var path: String?
        var number: Int?
        var testDescription: String { "'\(text)'" }
    }

    static let busCases: [BusCase] = [
        BusCase(text: "1", path: "/dev/i2c-1", number: 1),
        BusCase(text: "i2c-1", path: "/dev/i2c-1", number: 1),
        BusCase(text: "/dev/i2c-1", path: "/dev/i2c-1", number: 1),
        BusCase(text: " 22 ", path: "/dev/i2c-22", number: 22),
        BusCase(text: "/dev/i2c/scale", path: "/dev/i2c/scale", number: nil),
        BusCase(text: "", path: nil, number: nil),
        BusCase(text: "i2c-", path: nil, number: nil),
        BusCase(text: "-1", path: nil, number: nil),
        BusCase(text: "bus1", path: nil, number: nil)
    ]

    @Test("a bus spec accepts 1, i2c-1 and /dev/i2c-1 and rejects anything else", arguments: busCases)
    func parseBus(_ test: BusCase) {
        if let path = test.path {
            let spec = try? I2CBusSpec(parsing: test.text)
            #expect(spec?.path == path)
            #expect(spec?.number == test.number)
        } else {
            let error = #expect(throws: HardwareError.self) { try I2CBusSpec(parsing: test.text) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.hint?.contains("i2c-1") == true)
        }
    }

    struct AddressCase: Sendable, CustomTestStringConvertible {
        var value: Int
        var valid: Bool
        var testDescription: String { String(value) }
    }

    static let addressCases: [AddressCase] = [
        AddressCase(value: -1, valid: false), AddressCase(value: 0x00, valid: false),
        AddressCase(value: 0x02, valid: false), AddressCase(value: 0x03, valid: true),
        AddressCase(value: 0x48, valid: true), AddressCase(value: 0x4B, valid: true),
        AddressCase(value: 0x77, valid: true), AddressCase(value: 0x78, valid: false),
        AddressCase(value: 0x90, valid: false), AddressCase(value: 0x1_48, valid: false)
    ]

    @Test("addresses are accepted exactly in the 7-bit device range 0x03…0x77", arguments: addressCases)
    func validateAddress(_ test: AddressCase) {
        if test.valid {
            #expect((try? I2CAddress(validating: test.value))?.rawValue == UInt8(test.value))
        } else {
            let error = #expect(throws: HardwareError.self) { try I2CAddress(validating: test.value) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.detail?.contains("0x03…0x77") == true)
        }
        #expect((UInt8(exactly: test.value).flatMap { I2CAddress(rawValue: $0) } != nil) == test.valid)
    }

    @Test("addresses parse from hex and decimal text and print as hex")
    func parseAddress() throws {
        #expect(try I2CAddress(parsing: "0x48").rawValue == 0x48)
        #expect(try I2CAddress(parsing: "0X4b").rawValue == 0x4B)
        #expect(try I2CAddress(parsing: "72").rawValue == 72)
        #expect(try I2CAddress(parsing: "0x48").description == "0x48")
        #expect(try I2CAddress(parsing: "0x03").description == "0x03")
        #expect(throws: HardwareError.self) { try I2CAddress(parsing: "zz") }
    }

    @Test("opening a bus that does not exist is ENOENT with the enable-I2C hint")
    func missingBus() throws {
        let directory = try TemporaryDirectory()
        let bus = I2CBusSpec(path: directory.path + "/i2c-1", number: 1)
        let address = try I2CAddress(validating: 0x48)
        let error = #expect(throws: HardwareError.self) { try I2CDevice(bus: bus, address: address) }
        #expect(error?.code == .notFound)
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.subject == bus.path)
        #expect(error?.hint?.contains("sudo raspi-config nonint do_i2c 0") == true)
        #expect(error?.hint?.contains("dtparam=i2c_arm=on") == true)
    }

    @Test("a file that is not an I2C bus fails the I2C_SLAVE ioctl with ENOTTY and says so")
    func notABus() throws {
        let bus = try I2CBusSpec(parsing: "/dev/null")
        let error = #expect(throws: HardwareError.self) {
            try I2CDevice(bus: bus, address: try I2CAddress(validating: 0x48))
        }
        #expect(error?.errno == .notATypewriter)
        #expect(error?.subject == "/dev/null address 0x48")
        #expect(error?.hint?.contains("not an I2C bus") == true)
    }

    @Test("libi2c's negative-errno returns become -1 with errno: a transfer on a non-bus is ENOTTY")
    func libi2cErrnoIsNormalised() throws {
        let fd = open("/dev/null", O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(Syscalls.i2cReadByte(fd, register: 0) == .failure(.notATypewriter))
        #expect(Syscalls.i2cReadWord(fd, register: 0) == .failure(.notATypewriter))
        #expect(Syscalls.i2cWriteWord(fd, register: 1, 0x8583).map { true } == .failure(.notATypewriter))
        var bytes = [UInt8](repeating: 0, count: 4)
        let block = bytes.withUnsafeMutableBufferPointer { Syscalls.i2cReadBlock(fd, register: 0, into: $0) }
        #expect(block == .failure(.notATypewriter))
    }

    @Test("a missing device (NACK) names the bus, the address and i2cdetect for that bus")
    func nackHint() {
        for errno in [Errno.noSuchDeviceOrAddress, .remoteIOError] {
            let error = HardwareError.i2cTransfer(
                operation: "reading word 0x00 at", subject: "i2c-1 address 0x48", busNumber: 1, errno: errno)
            #expect(error.description.hasPrefix("reading word 0x00 at i2c-1 address 0x48: "))
            #expect(error.hint?.contains("check wiring") == true)
            #expect(error.hint?.contains("i2cdetect -y 1") == true)
        }
    }
}
