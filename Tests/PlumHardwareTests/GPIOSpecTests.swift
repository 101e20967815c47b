import PlumHardware
import Testing

@Suite("GPIO line and chip specs")
struct GPIOSpecTests {
    struct LineCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: GPIOLineSpec?
        var testDescription: String { "'\(text)'" }
    }

    static let lineCases: [LineCase] = [
        LineCase(text: "5", expected: .offset(5)),
        LineCase(text: " 27\n", expected: .offset(27)),
        LineCase(text: "0", expected: .offset(0)),
        LineCase(text: "GPIO5", expected: .name("GPIO5")),
        LineCase(text: "ID_SDA", expected: .name("ID_SDA")),
        LineCase(text: "", expected: nil),
        LineCase(text: "   ", expected: nil),
        LineCase(text: "-1", expected: nil),
        LineCase(text: "5a", expected: nil),
        LineCase(text: "4294967296", expected: nil),
        LineCase(text: String(repeating: "G", count: 32), expected: nil)
    ]

    @Test(
        "a line spec parses offsets and names, and rejects what the kernel could never match",
        arguments: lineCases)
    func parseLine(_ test: LineCase) throws {
        if let expected = test.expected {
            let spec = try GPIOLineSpec(parsing: test.text)
            #expect(spec == expected)
            #expect(try GPIOLineSpec(parsing: spec.description) == spec)
        } else {
            let error = #expect(throws: HardwareError.self) { try GPIOLineSpec(parsing: test.text) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.description.contains("'\(test.text)'") == true)
            #expect(error?.hint != nil)
        }
    }

    struct ChipCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: GPIOChipSpec
        var testDescription: String { "'\(text)'" }
    }

    static let chipCases: [ChipCase] = [
        ChipCase(text: "/dev/gpiochip0", expected: .path("/dev/gpiochip0")),
        ChipCase(text: "gpiochip4", expected: .name("gpiochip4")),
        ChipCase(text: "4", expected: .name("gpiochip4")),
        ChipCase(text: "pinctrl-rp1", expected: .label("pinctrl-rp1")),
        ChipCase(text: "pinctrl-bcm2711", expected: .label("pinctrl-bcm2711")),
        ChipCase(text: "gpiochipX", expected: .label("gpiochipX"))
    ]

    @Test("a chip spec tells paths, names and labels apart", arguments: chipCases)
    func parseChip(_ test: ChipCase) throws {
        #expect(try GPIOChipSpec(parsing: test.text) == test.expected)
    }

    @Test("an empty chip spec is an invalid request with a hint")
    func emptyChip() {
        let error = #expect(throws: HardwareError.self) { try GPIOChipSpec(parsing: " ") }
        #expect(error?.code == .invalidRequest)
        #expect(error?.hint?.contains("pinctrl") == true)
    }

    @Test("chip info prints as gpiodetect does")
    func chipInfoDescription() {
        let info = GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
        #expect(info.description == "gpiochip0 [pinctrl-bcm2711] 58 lines")
    }
}
