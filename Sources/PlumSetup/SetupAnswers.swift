import PlumDaemonConfig
import PlumSettings
import TOMLKit

/// `plumscale setup --answers FILE`: every answer the wizard would ask for, so that a script (or
/// the VM test) runs the whole setup with no prompt. The format is in docs/cli.md and
/// Calibration/examples/setup-answers.toml.
///
/// Read as strictly as the configuration: an unknown key or a wrong type is an error naming the
/// file, the line, the key and what is allowed, since a typo in an unattended setup must stop
/// it rather than leave a scale half set up.
package struct SetupAnswers: Equatable {
    /// Replace an existing configuration that differs (the interactive wizard asks instead).
    var overwrite = false
    var sensors: [Sensor] = []
    var calibrations: [Calibration] = []
    var socketGroup: String?
    var adminGroup: String?
    var mqtt: MQTT?
    var web: Web?
    /// `[display]`: the panel plumscale-display draws on.
    var display: Display?
    /// `[cue]`, copied into the configuration as written (its keys are the configuration's).
    var cue: [Entry]?
    /// `[[button]]`s, copied likewise.
    var buttons: [[Entry]] = []

    /// One `[[sensor]]`: its name, kind and the configuration keys to write for it.
    struct Sensor: Equatable {
        var name: String
        var kind: SourceKind
        /// In the answers' order; the wizard adds what was left to the probe (chip, rate).
        var keys: [Entry]

        func value(_ key: String) -> AnswerValue? { keys.first { $0.key == key }?.value }
    }

    /// One `[[calibration]]`: scripted points as `plumscale calibrate --point … --yes`.
    struct Calibration: Equatable {
        var sensor: String
        /// Grams; the first is 0, the empty pan.
        var points: [Double]
        /// Seconds each point waits for its load.
        var wait: Double
    }

    struct MQTT: Equatable {
        var enable = true
        var host: String?
        var port: Int?
        var username: String?
        var passwordFile: String?
        var scaleID: String?
    }

    struct Web: Equatable {
        var enable = true
        var listen: String?
        /// A file holding the page's password in plain text; setup hashes it.
        var passwordFile: String?
        /// `[web] lan_read_only`; nil: true when `listen` reaches beyond this machine.
        var lanReadOnly: Bool? = nil
    }

    /// `[display]`: the keys of the configuration's `[display]` that setup writes. What is left
    /// out comes from the probe (an I2C panel's bus and address, a framebuffer's device) or is
    /// the kind's usual value (``SetupWizard/completeDisplay(_:_:)``).
    struct Display: Equatable {
        var enable = true
        /// One of ``kinds``; nil only when `enable` is false.
        var kind: String?
        var bus: Int?
        var address: Int?
        var size: String?
        var device: String?
        var rotate: Int?
        var frameFile: String?
    }

    /// The configuration's display kinds (docs/display.md).
    static let displayKinds = ["ssd1306", "hd44780", "framebuffer", "simulated-ssd1306", "simulated-hd44780"]

    /// The sizes a display kind takes: pixels for an OLED, characters for an LCD; none for a
    /// framebuffer, whose size the kernel knows.
    static func displaySizes(_ kind: String) -> [String] {
        guard let kind = DisplaySettings.Kind(rawValue: kind) else { return [] }
        return DisplaySettings.sizes(for: kind).map(\.description)
    }

    /// One key and its value, to be written into the configuration.
    struct Entry: Equatable {
        var key: String
        var value: AnswerValue
    }

    /// The configuration keys each kind of sensor takes in the answers, beyond name and kind.
    static let sensorKeys: [SourceKind: [String]] = [
        // The HX711 driver's limits and its sampler's scheduling, as the configuration has them
        // (docs/configuration.md): a slow or emulated bus needs the limits raised, and the answers
        // must be able to say so, or setup's own calibration would discard every sample there.
        .hx711: [
            "chip", "dout", "sck", "rate", "gain", "profile", "ready_timeout_ms", "clock_high_limit_us",
            "realtime_priority", "lock_memory"
        ],
        .ads1115: ["bus", "address", "channel", "pga_volts", "data_rate", "mode", "profile"],
        .iio: ["device", "channel", "poll_rate", "root", "profile"],
        .simulatedHX711: ["seed", "rate", "gain", "load_grams", "load_file", "cell_capacity_grams", "profile"],
        .simulatedFSR: ["seed", "data_rate", "load_grams", "load_file", "profile"]
    ]

    /// Reads and checks an answers file.
    package static func load(path: String) throws(ConfigurationError) -> SetupAnswers {
        try parse(ConfigurationFile.text(at: path), file: path)
    }

    /// Parses and checks answers text; `file` names it in errors.
    static func parse(_ text: String, file: String) throws(ConfigurationError) -> SetupAnswers {
        let table = try TOMLTable.parse(text, file: file)
        let locator = SourceLocator(text: text)
        var root = TOMLReader(table: table, file: file, path: "", locator: locator, section: .root)
        var answers = SetupAnswers()
        answers.overwrite = try root.bool("overwrite") ?? false
        for (index, sensorTable) in try sections(&root, "sensor", locator: locator).enumerated() {
            var reader = TOMLReader(
                table: sensorTable, file: file, path: "sensor[\(index)]", locator: locator,
                section: .arrayElement("sensor", index: index))
            let sensor = try Sensor(&reader)
            if answers.sensors.contains(where: { $0.name == sensor.name }) {
                throw reader.error("name", "the name \"\(sensor.name)\" is used twice; each sensor needs its own")
            }
            answers.sensors.append(sensor)
        }
        for (index, calibrationTable) in try sections(&root, "calibration", locator: locator).enumerated() {
            var reader = TOMLReader(
                table: calibrationTable, file: file, path: "calibration[\(index)]", locator: locator,
                section: .arrayElement("calibration", index: index))
            let calibration = try Calibration(&reader)
            guard answers.sensors.contains(where: { $0.name == calibration.sensor }) else {
                throw reader.error(
                    "sensor",
                    "sensor = \"\(calibration.sensor)\" is not a [[sensor]] of this file; use "
                        + TOMLReader.list(answers.sensors.map { "\"\($0.name)\"" }))
            }
            answers.calibrations.append(calibration)
        }
        if var groups = try section(&root, "groups", locator: locator) {
            answers.socketGroup = try groups.string("socket_group")
            answers.adminGroup = try groups.string("admin_group")
            try groups.rejectUnknownKeys()
        }
        if var mqtt = try section(&root, "mqtt", locator: locator) {
            answers.mqtt = try MQTT(&mqtt)
        }
        if var web = try section(&root, "web", locator: locator) {
            answers.web = Web(
                enable: try web.bool("enable") ?? true, listen: try web.string("listen"),
                passwordFile: try web.string("password_file"), lanReadOnly: try web.bool("lan_read_only"))
            try web.rejectUnknownKeys()
        }
        if var display = try section(&root, "display", locator: locator) {
            answers.display = try Display(&display)
        }
        if let cue = try section(&root, "cue", locator: locator) { answers.cue = try entries(cue) }
        answers.buttons = try sections(&root, "button", locator: locator).enumerated().map {
            (index, button) throws(ConfigurationError) in
            try entries(
                TOMLReader(
                    table: button, file: file, path: "button[\(index)]", locator: locator,
                    section: .arrayElement("button", index: index)))
        }
        try root.rejectUnknownKeys()
        return answers
    }

    /// The `[name]` table, if the file has one.
    private static func section(_ root: inout TOMLReader, _ name: String, locator: SourceLocator)
        throws(ConfigurationError) -> TOMLReader?
    {
        root.markKnown([name])
        guard let value = root.table[name] else { return nil }
        guard let table = value.table else { throw root.error(name, "expected a table [\(name)]") }
        return TOMLReader(table: table, file: root.file, path: name, locator: locator, section: .table(name))
    }

    /// The `[[name]]` tables, if any.
    private static func sections(_ root: inout TOMLReader, _ name: String, locator: SourceLocator)
        throws(ConfigurationError) -> [TOMLTable]
    {
        root.markKnown([name])
        guard let value = root.table[name] else { return [] }
        guard let array = value.array else { throw root.error(name, "expected [[\(name)]] tables") }
        var tables: [TOMLTable] = []
        for index in 0..<array.count {
            guard let table = array[index].table else { throw root.error(name, "expected [[\(name)]] tables") }
            tables.append(table)
        }
        return tables
    }

    /// A table copied as written: its keys are checked by the configuration's own rules when
    /// the rendered file is validated.
    private static func entries(_ reader: TOMLReader) throws(ConfigurationError) -> [Entry] {
        var entries: [Entry] = []
        for key in reader.table.keys.sorted() {
            guard let value = AnswerValue(reader.table[key]!) else {
                throw reader.error(key, "expected a string, a number, true or false, or a list of them")
            }
            entries.append(Entry(key: key, value: value))
        }
        return entries
    }
}

extension SetupAnswers.Sensor {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        name = try reader.requiredString("name", example: "\"pan\"")
        guard SensorConfiguration.isValidName(name) else {
            throw reader.error(
                "name", "name = \"\(name)\" is not allowed; use letters, digits, '-' and '_' (1 to 32 characters)")
        }
        let kinds = SetupAnswers.sensorKeys.keys.map { ($0.rawValue, $0) }.sorted { $0.0 < $1.0 }
        guard let kind = try reader.choice("kind", kinds) else {
            throw reader.error(nil, "missing key kind; use \(TOMLReader.list(kinds.map(\.0)))")
        }
        self.kind = kind
        keys = []
        reader.markKnown(SetupAnswers.sensorKeys[kind] ?? [])
        for key in SetupAnswers.sensorKeys[kind] ?? [] {
            guard let raw = reader.table[key] else { continue }
            let value: AnswerValue
            switch key {
            case "chip", "profile", "device", "root", "mode", "load_file":
                guard let text = raw.string else { throw reader.error(key, "expected a string in quotes") }
                value = .string(text)
            case "dout", "sck", "bus":
                guard let text = try reader.stringOrInt(key) else { continue }
                value = raw.int.map { .int($0) } ?? .string(text)
            case "channel" where kind == .ads1115:
                // 0 to 3 as the issue's shorthand for AIN0 to AIN3, or the configuration's own name.
                if let number = raw.int {
                    guard (0...3).contains(number) else {
                        throw reader.error(key, "channel = \(number) is out of range; use 0 to 3, or \"AIN0-AIN1\"")
                    }
                    value = .string("AIN\(number)")
                } else if let text = raw.string {
                    value = .string(text)
                } else {
                    throw reader.error(key, "expected 0 to 3, or a channel name in quotes such as \"AIN0\"")
                }
            case "lock_memory":
                guard let flag = try reader.bool(key) else { continue }
                value = .bool(flag)
            case "pga_volts", "poll_rate", "load_grams", "cell_capacity_grams":
                guard let number = try reader.double(key) else { continue }
                value = raw.int.map { .int($0) } ?? .double(number)
            default:
                guard let number = try reader.int(key) else { continue }
                value = .int(number)
            }
            keys.append(SetupAnswers.Entry(key: key, value: value))
        }
        if value("profile") == nil, let profile = Self.defaultProfile[kind] {
            keys.append(SetupAnswers.Entry(key: "profile", value: .string(profile)))
        }
        try reader.rejectUnknownKeys()
    }

    /// The profile written when the answers name none: the parts the README lists (a 1 kg bar
    /// cell on an HX711 at gain 128; an FSR 402 in a 10 kOhm divider at 3.3 V).
    static let defaultProfile: [SourceKind: String] = [
        .hx711: "hx711-1kg-gain128", .ads1115: "fsr402-10k-3v3"
    ]
}

extension SetupAnswers.Calibration {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        sensor = try reader.requiredString("sensor", example: "\"pan\"")
        reader.markKnown(["points"])
        guard let list = reader.table["points"] else {
            throw reader.error(nil, "missing key points; the known weights in grams, first the empty pan: [0, 100]")
        }
        guard let array = list.array else {
            throw reader.error("points", "expected a list of grams, such as [0, 100]")
        }
        points = []
        for index in 0..<array.count {
            guard let grams = array[index].double ?? array[index].int.map(Double.init) else {
                throw reader.error("points", "item \(index + 1) is not a number of grams; write points = [0, 100]")
            }
            points.append(grams)
        }
        guard points.first == 0 else {
            throw reader.error("points", "the first point is the empty pan: start with 0, as in [0, 100]")
        }
        guard points.count >= 2 else {
            throw reader.error("points", "0 alone is not a calibration: add a known weight, as in [0, 100]")
        }
        if let bad = points.dropFirst().first(where: { !($0 > 0) || !$0.isFinite }) {
            throw reader.error("points", "\(bad): a known weight is a positive number of grams")
        }
        wait = try reader.double("wait", in: 1...3600, unit: "seconds") ?? 120
        try reader.rejectUnknownKeys()
    }
}

extension SetupAnswers.Display {
    /// Reads `[display]`, refusing a key that the kind does not take (an I2C address for a
    /// framebuffer, a device for an OLED), since the program would ignore it without a word.
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        enable = try reader.bool("enable") ?? true
        let kinds = SetupAnswers.displayKinds
        kind = try reader.choice("kind", kinds.map { ($0, $0) })
        bus = try reader.int("bus", in: 0...255, unit: "(the N of /dev/i2c-N)")
        if let address = try reader.int("address") {
            guard (0x03...0x77).contains(address) else {
                throw reader.error(
                    "address",
                    "address = \(address) is outside the 7-bit range 0x03 to 0x77; write it as i2cdetect "
                        + "shows it, such as 0x3C")
            }
            self.address = address
        }
        size = try reader.string("size")
        device = try reader.string("device")
        rotate = try reader.choice("rotate", [("0", 0), ("180", 180)])
        frameFile = try reader.string("frame_file")
        try reader.rejectUnknownKeys()
        guard let kind else {
            guard !enable else {
                throw reader.error(nil, "missing key kind; use \(TOMLReader.list(kinds.map { "\"\($0)\"" }))")
            }
            return
        }
        let i2c = kind == "ssd1306" || kind == "hd44780"
        if rotate == 180, kind.hasSuffix("hd44780") {
            throw reader.error("rotate", "a character LCD cannot turn its letters over; leave rotate out")
        }
        for (key, given) in [("bus", bus != nil), ("address", address != nil)] where given && !i2c {
            throw reader.error(key, "\(key) is for a panel on I2C (ssd1306, hd44780), not kind = \"\(kind)\"")
        }
        if let size {
            let sizes = SetupAnswers.displaySizes(kind)
            guard sizes.contains(size.lowercased()) else {
                throw reader.error(
                    "size",
                    sizes.isEmpty
                        ? "a framebuffer's size comes from the kernel; leave size out"
                        : "size = \"\(size)\" is not a \(kind) size; use \(TOMLReader.list(sizes.map { "\"\($0)\"" }))")
            }
            self.size = size.lowercased()
        }
        if let device {
            guard kind == "framebuffer" else {
                throw reader.error("device", "device is for kind = \"framebuffer\", not kind = \"\(kind)\"")
            }
            guard device.hasPrefix("/") else {
                throw reader.error("device", "device = \"\(device)\" must be a path such as \"/dev/fb1\"")
            }
        }
        if let frameFile {
            guard kind.hasPrefix("simulated-") else {
                throw reader.error("frame_file", "frame_file is for the simulated kinds; a \(kind) shows its own frame")
            }
            guard frameFile.hasPrefix("/") else {
                throw reader.error(
                    "frame_file",
                    "frame_file = \"\(frameFile)\" must be an absolute path, such as "
                        + "\"/run/plumscale-display/display.pbm\"")
            }
        }
    }
}

extension SetupAnswers.MQTT {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        enable = try reader.bool("enable") ?? true
        host = try reader.string("host")
        port = try reader.int("port", in: 1...65_535, unit: "(1883 for MQTT)")
        username = try reader.string("username")
        passwordFile = try reader.string("password_file")
        scaleID = try reader.string("scale_id")
        if passwordFile != nil && username == nil {
            throw reader.error("password_file", "a password needs a username; set username as well")
        }
        try reader.rejectUnknownKeys()
    }
}

/// A value from the answers, written back as TOML.
enum AnswerValue: Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([AnswerValue])

    init?(_ value: any TOMLValueConvertible) {
        if let text = value.string {
            self = .string(text)
        } else if let number = value.int {
            self = .int(number)
        } else if let number = value.double {
            self = .double(number)
        } else if let flag = value.bool {
            self = .bool(flag)
        } else if let array = value.array {
            var items: [AnswerValue] = []
            for index in 0..<array.count {
                guard let item = AnswerValue(array[index]), !item.isList else { return nil }
                items.append(item)
            }
            self = .list(items)
        } else {
            return nil
        }
    }

    private var isList: Bool { if case .list = self { true } else { false } }

    /// The value as TOML source.
    var toml: String {
        switch self {
        case .string(let text): return Self.quoted(text)
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .list(let items): return "[" + items.map(\.toml).joined(separator: ", ") + "]"
        }
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
