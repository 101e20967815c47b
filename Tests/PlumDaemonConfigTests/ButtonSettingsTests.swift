import PlumDaemonConfig
import PlumHardware
import PlumSettings
import Testing

@Suite("[[button]]: read with its defaults, and every mistake refused with file, line, key and a fix")
struct ButtonSettingsTests {
    static let sensors = """
        [[sensor]]
        name = "left"
        kind = "simulated-hx711"
        [[sensor]]
        name = "right"
        kind = "simulated-hx711"

        """

    @Test("a button is read whole; a second with only chip and line gets the defaults and every sensor")
    func reads() throws {
        let config = try PlumConfiguration.parse(
            Self.sensors + """
                [[button]]
                chip = "gpiochip0"
                line = "GPIO27"
                bias = "pull-up"
                active_low = true
                debounce_ms = 30
                long_press_ms = 2000
                sensors = ["right"]
                [[button]]
                chip = "gpiochip0"
                line = 22
                """, file: "t.toml")
        let first = try #require(config.buttons.first)
        let chip = try GPIOChipSpec(parsing: "gpiochip0")
        let line = try GPIOLineSpec(parsing: "GPIO27")
        #expect(first.chip == chip && first.line == line, "\(first.chip) line \(first.line)")
        #expect(first.bias == .pullUp && first.activeLow && first.debounceMilliseconds == 30)
        #expect(first.longPressMilliseconds == 2000 && first.sensors == ["right"])
        #expect(
            first.position == SourcePosition(file: "t.toml", line: 7), "the [[button]] header's line: \(first.position)"
        )
        let second = try #require(config.buttons.last)
        #expect(second.bias == .asIs && !second.activeLow && second.debounceMilliseconds == 20)
        #expect(second.longPressMilliseconds == 1000 && second.sensors == ["left", "right"], "\(second)")
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var table: String
        var line: Int
        var says: String
        var description: String { says }
    }

    @Test(
        "each mistake is refused at its line, saying what to write instead",
        arguments: [
            Refusal(table: "line = \"GPIO27\"", line: 7, says: "missing key chip"),
            Refusal(table: "chip = \"gpiochip0\"", line: 7, says: "missing key line"),
            Refusal(table: "chip = \"gpiochip0\"\nline = 27\nbias = \"up\"", line: 10, says: "bias"),
            Refusal(
                table: "chip = \"gpiochip0\"\nline = 27\nsensors = [\"middle\"]", line: 10,
                says: "\"middle\", which is not a configured sensor; use \"left\" or \"right\""),
            Refusal(table: "chip = \"gpiochip0\"\nline = 27\nsensors = []", line: 10, says: "names no sensor"),
            Refusal(
                table: "chip = \"gpiochip0\"\nline = 27\nsensors = \"left\"", line: 10, says: "expected a list of names"
            ),
            Refusal(table: "chip = \"gpiochip0\"\nline = 27\nlong_press_ms = 50", line: 10, says: "long_press_ms"),
            Refusal(
                table: "chip = \"gpiochip0\"\nline = 27\ndebounce_ms = 500\nlong_press_ms = 400", line: 11,
                says: "must outlast the debounce time"),
            Refusal(table: "chip = \"gpiochip0\"\nline = 27\nhold_ms = 5", line: 10, says: "unknown key hold_ms")
        ])
    func refusals(_ refusal: Refusal) {
        let text = Self.sensors + "[[button]]\n" + refusal.table
        #expect {
            try PlumConfiguration.parse(text, file: "t.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.description.contains("t.toml") && error.description.contains(refusal.says)
                && error.line == refusal.line
        }
    }

    @Test("two buttons on one line are refused, naming the first one's line")
    func oneButtonPerLine() {
        let text =
            Self.sensors + """
                [[button]]
                chip = "gpiochip0"
                line = 27
                [[button]]
                chip = "gpiochip0"
                line = 27
                """
        #expect {
            try PlumConfiguration.parse(text, file: "t.toml")
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("already the button on line 7") == true
        }
    }
}
