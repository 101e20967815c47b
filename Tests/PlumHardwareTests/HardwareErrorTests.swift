import PlumHardware
import Testing

@Suite("HardwareError formatting")
struct HardwareErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var error: HardwareError
        var text: String
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(
            error: HardwareError(
                .systemCall, operation: "opening", subject: "/dev/gpiochip0", errno: .permissionDenied,
                hint: "add the user to group 'gpio'"),
            text: "opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'"),
        Case(
            error: HardwareError(
                .systemCall, operation: "reading word 0x00 at", subject: "i2c-1 address 0x48",
                errno: .noSuchDeviceOrAddress),
            text: "reading word 0x00 at i2c-1 address 0x48: No such device or address (ENXIO)"),
        Case(
            error: HardwareError(
                .malformed, operation: "parsing", subject: "/sys/x/in_voltage0_raw",
                detail: "expected an integer, found 'abc'"),
            text: "parsing /sys/x/in_voltage0_raw: expected an integer, found 'abc'"),
        Case(
            error: HardwareError(.notFound, operation: "", subject: "gpiochip9", hint: "chips here: none"),
            text: "gpiochip9; chips here: none")
    ]

    @Test("the description reads 'operation subject: errno or detail; hint'", arguments: cases)
    func description(_ test: Case) {
        #expect(test.error.description == test.text)
    }

    @Test("an errno takes precedence over a detail in the description")
    func errnoOverDetail() {
        let error = HardwareError(
            .systemCall, operation: "reading", subject: "x", errno: .ioError, detail: "ignored")
        #expect(error.description == "reading x: Input/output error (EIO)")
    }
}
