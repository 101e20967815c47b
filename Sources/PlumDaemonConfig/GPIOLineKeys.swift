internal import PlumHardware
internal import PlumSettings

/// The `chip` and `line` keys of a table that names one GPIO line (`[cue]`, `[[button]]`),
/// read and checked the one way, with an example fitting what the line is for.
struct GPIOLineKeys {
    var chip: GPIOChipSpec
    var line: GPIOLineSpec

    /// - Parameters:
    ///   - what: what is wired to the line, for messages: "the buzzer", "the button".
    ///   - example: a line of the Pi's header that suits it, such as 18.
    init(_ reader: inout TOMLReader, what: String, example: Int) throws(ConfigurationError) {
        guard let chip = try reader.string("chip") else {
            throw reader.error(nil, "missing key chip; the GPIO chip \(what) is on, for example chip = \"gpiochip0\"")
        }
        guard let line = try reader.stringOrInt("line") else {
            throw reader.error(
                nil, "missing key line; the GPIO line \(what) is on, for example line = \"GPIO\(example)\"")
        }
        do {
            self.chip = try GPIOChipSpec(parsing: chip)
        } catch {
            let detail = error.detail ?? "\(error)"
            throw reader.error(
                "chip",
                "chip = \"\(chip)\": \(detail); use a path, a name or a label, such as \"gpiochip0\" or \"pinctrl-rp1\""
            )
        }
        do {
            self.line = try GPIOLineSpec(parsing: line)
        } catch {
            let detail = error.detail ?? "\(error)"
            throw reader.error(
                "line",
                "line = \"\(line)\": \(detail); use a line name such as \"GPIO\(example)\" "
                    + "or an offset such as \(example)"
            )
        }
    }
}
