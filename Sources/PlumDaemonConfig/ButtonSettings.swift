package import PlumHardware
package import PlumSettings
internal import TOMLKit

/// One `[[button]]`: a push button on a GPIO line that tares its sensors with a short press
/// and zeroes them with a long one, as the keys of a kitchen scale do.
///
///     [[button]]
///     chip = "gpiochip0"
///     line = "GPIO27"
///     bias = "pull-up"     # the button connects the line to ground
///     active_low = true    # so pressed is low
///     debounce_ms = 20
///     long_press_ms = 1000
///     sensors = ["left"]   # all sensors when left out
package struct ButtonSettings: Hashable, Sendable {
    package var chip: GPIOChipSpec
    package var line: GPIOLineSpec
    package var bias: GPIOBias
    /// Pressed is the line's low level.
    package var activeLow: Bool
    /// How long a new level must hold to count (contact bounce is shorter).
    package var debounceMilliseconds: Int
    /// How long a press must be held to zero instead of tare.
    package var longPressMilliseconds: Int
    /// The sensors a press acts on, in the configuration's order.
    package var sensors: [String]
    /// The line of the `[[button]]` table, for messages about it.
    package var position: SourcePosition

    package init(
        chip: GPIOChipSpec, line: GPIOLineSpec, bias: GPIOBias = .asIs, activeLow: Bool = false,
        debounceMilliseconds: Int = 20, longPressMilliseconds: Int = 1000, sensors: [String],
        position: SourcePosition = SourcePosition(file: "<built-in>", line: nil)
    ) {
        self.chip = chip
        self.line = line
        self.bias = bias
        self.activeLow = activeLow
        self.debounceMilliseconds = debounceMilliseconds
        self.longPressMilliseconds = longPressMilliseconds
        self.sensors = sensors
        self.position = position
    }

    /// Every `[[button]]` of the file, checked against the sensors.
    static func parseAll(
        table: TOMLTable, file: String, locator: SourceLocator, sensors: [SensorConfiguration]
    ) throws(ConfigurationError) -> [ButtonSettings] {
        guard let value = table["button"] else { return [] }
        guard let array = value.array else {
            throw ConfigurationError(file: file, key: "button", message: "expected [[button]] tables, one per button")
        }
        var buttons: [ButtonSettings] = []
        for index in 0..<array.count {
            let section = SourceLocator.Section.arrayElement("button", index: index)
            guard let buttonTable = array[index].table else {
                throw ConfigurationError(
                    file: file, line: locator.line(of: section), key: "button[\(index)]",
                    message: "expected a [[button]] table")
            }
            var reader = TOMLReader(
                table: buttonTable, file: file, path: "button[\(index)]", locator: locator, section: section)
            var button = try ButtonSettings(&reader, sensors: sensors)
            button.position = SourcePosition(file: file, line: locator.line(of: section))
            if let earlier = buttons.first(where: { $0.chip == button.chip && $0.line == button.line }) {
                throw ConfigurationError(
                    file: file, line: button.position.line, key: "button[\(index)].line",
                    message: "line \(button.line) of \(button.chip) is already the button on line "
                        + "\(earlier.position.line ?? 0); one button per line, listing all its sensors")
            }
            buttons.append(button)
        }
        return buttons
    }

    init(_ reader: inout TOMLReader, sensors configured: [SensorConfiguration]) throws(ConfigurationError) {
        let keys = try GPIOLineKeys(&reader, what: "the button", example: 27)
        chip = keys.chip
        line = keys.line
        bias =
            try reader.choice(
                "bias", GPIOBias.allCases.map { ($0.description, $0) }) ?? .asIs
        activeLow = try reader.bool("active_low") ?? false
        debounceMilliseconds =
            try reader.int("debounce_ms", in: 0...1_000, unit: "ms (how long a new level must hold)") ?? 20
        longPressMilliseconds =
            try reader.int("long_press_ms", in: 100...60_000, unit: "ms (held this long, a press zeroes)") ?? 1000
        guard longPressMilliseconds > debounceMilliseconds else {
            throw reader.error(
                "long_press_ms",
                "long_press_ms = \(longPressMilliseconds) is not longer than debounce_ms = \(debounceMilliseconds); "
                    + "a long press must outlast the debounce time, such as long_press_ms = 1000")
        }
        let names = configured.map(\.name)
        if let listed = try reader.strings("sensors") {
            guard !listed.isEmpty else {
                throw reader.error("sensors", "sensors = [] names no sensor; list some, or leave the key out for all")
            }
            for name in listed where !names.contains(name) {
                throw reader.error(
                    "sensors",
                    "sensors lists \"\(name)\", which is not a configured sensor; use "
                        + TOMLReader.list(names.map { "\"\($0)\"" }))
            }
            sensors = names.filter { listed.contains($0) }
        } else {
            sensors = names
        }
        position = SourcePosition(file: reader.file)
        try reader.rejectUnknownKeys()
    }
}
