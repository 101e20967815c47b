package import PlumSettings
internal import TOMLKit

/// The whole configuration file, `/etc/plumscale/plumscale.toml`.
///
/// Hand-edited, so it is validated strictly: every key is checked for type and range, unknown
/// keys are refused (a typo must not be silently ignored), and each error names the file, the
/// line, the key and what is allowed.
package struct PlumConfiguration: Hashable, Sendable {
    /// The default location on a Pi.
    package static let defaultPath = ConfigurationFile.defaultPath

    package var scale: ScaleSettings
    package var sensors: [SensorConfiguration]
    package var daemon: DaemonSettings
    /// The buzzer/haptic output, when one is wired.
    package var cue: CueOutputSettings?
    /// The file it was read from, or "<built-in>".
    package var source: String
    /// The `[[alert]]` rules, checked against the sensors.
    package var alerts: [AlertSettings] = []
    /// The `[[button]]`s: push buttons that tare (short press) or zero (long press).
    package var buttons: [ButtonSettings] = []
    /// The `[[class]]` weight bands, lightest first, for every sensor's items (docs/items.md).
    package var classes: [WeightClassSettings] = []

    package init(
        scale: ScaleSettings = ScaleSettings(), sensors: [SensorConfiguration],
        daemon: DaemonSettings = DaemonSettings(), cue: CueOutputSettings? = nil, source: String = "<built-in>"
    ) {
        self.scale = scale
        self.sensors = sensors
        self.daemon = daemon
        self.cue = cue
        self.source = source
    }

    /// The sensor called `name`, or an error that lists the sensors there are.
    package func sensor(named name: String) throws(ConfigurationError) -> SensorConfiguration {
        guard let sensor = sensors.first(where: { $0.name == name }) else {
            let names = sensors.map { "\"\($0.name)\"" }
            throw ConfigurationError(
                file: source, key: "",
                message: "no sensor named \"\(name)\"; sensors in this file: \(TOMLReader.list(names))")
        }
        return sensor
    }

    /// The settings `sensor`'s engine runs with: the defaults, then `[scale]`, then the sensor's
    /// profile, then the keys of its own table, each layer changing only what it names.
    package func scaleSettings(for sensor: SensorConfiguration) -> ScaleSettings {
        sensor.sensorSettings(over: scale)
    }

    /// Reads and validates a configuration file.
    package static func load(path: String) throws(ConfigurationError) -> PlumConfiguration {
        try parse(ConfigurationFile.text(at: path), file: path)
    }

    /// Parses and validates configuration text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ConfigurationError) -> PlumConfiguration {
        let table = try TOMLTable.parse(text, file: file)
        let locator = SourceLocator(text: text)
        var root = TOMLReader(table: table, file: file, path: "", locator: locator, section: .root)

        var scale = ScaleSettings()
        if let value = table["scale"] {
            guard let scaleTable = value.table else {
                throw root.error("scale", "expected a table [scale]")
            }
            scale = try ScaleSettings(
                TOMLReader(table: scaleTable, file: file, path: "scale", locator: locator, section: .table("scale")))
        }

        var daemon = DaemonSettings()
        if let value = table["daemon"] {
            guard let daemonTable = value.table else { throw root.error("daemon", "expected a table [daemon]") }
            daemon = try DaemonSettings(
                TOMLReader(table: daemonTable, file: file, path: "daemon", locator: locator, section: .table("daemon")))
        }
        var cue: CueOutputSettings?
        if let value = table["cue"] {
            guard let cueTable = value.table else { throw root.error("cue", "expected a table [cue]") }
            cue = try CueOutputSettings(
                TOMLReader(table: cueTable, file: file, path: "cue", locator: locator, section: .table("cue")))
        }

        var sensors: [SensorConfiguration] = []
        if let value = table["sensor"] {
            guard let array = value.array else {
                throw root.error("sensor", "expected [[sensor]] tables, one per sensor")
            }
            for index in 0..<array.count {
                let section = SourceLocator.Section.arrayElement("sensor", index: index)
                guard let sensorTable = array[index].table else {
                    throw ConfigurationError(
                        file: file, line: locator.line(of: section), key: "sensor[\(index)]",
                        message: "expected a [[sensor]] table")
                }
                let sensor = try SensorConfiguration.parse(
                    sensorTable, index: index, file: file, locator: locator, section: section, scale: scale)
                if let earlier = sensors.first(where: { $0.name == sensor.name }) {
                    throw ConfigurationError(
                        file: file, line: sensor.line, key: "sensor \"\(sensor.name)\"",
                        message:
                            "the name \"\(sensor.name)\" is already used by the sensor on line \(earlier.line ?? 0); "
                            + "names must be unique"
                    )
                }
                sensors.append(sensor)
            }
        }
        try checkSharedChips(sensors, file: file)
        if let name = daemon.mtsicsSensor, !sensors.contains(where: { $0.name == name }),
            let daemonTable = table["daemon"]?.table
        {
            let reader = TOMLReader(
                table: daemonTable, file: file, path: "daemon", locator: locator, section: .table("daemon"))
            let names = sensors.map { "\"\($0.name)\"" }
            throw reader.error(
                "mtsics_sensor",
                "mtsics_sensor = \"\(name)\" is not a configured sensor; use "
                    + (names.count == 1 ? names[0] : "one of " + TOMLReader.list(names)))
        }
        _ = try WebSettings.parse(table: table, file: file, locator: locator)  // [web] belongs to plumscale-web
        _ = try DisplaySettings.parse(table: table, file: file, locator: locator)  // [display]: plumscale-display
        let alerts = try AlertSettings.parseAll(
            table: table, file: file, locator: locator, sensors: sensors, hasCueOutput: cue != nil)
        let buttons = try ButtonSettings.parseAll(table: table, file: file, locator: locator, sensors: sensors)
        let classes = try WeightClassSettings.parseAll(table: table, file: file, locator: locator)
        // [mqtt] belongs to MQTTSettings.
        root.markKnown(["scale", "sensor", "daemon", "cue", "web", "mqtt", "alert", "button", "class", "display"])
        try root.rejectUnknownKeys()
        if sensors.isEmpty {
            throw ConfigurationError(
                file: file, key: "",
                message: "no sensors configured; add a [[sensor]] table (see the examples in Calibration/examples)")
        }
        var configuration = PlumConfiguration(scale: scale, sensors: sensors, daemon: daemon, cue: cue, source: file)
        configuration.alerts = alerts
        configuration.buttons = buttons
        configuration.classes = classes
        return configuration
    }
}

extension PlumConfiguration {
    /// Several channels of one ADS1115 take turns in single-shot mode. Continuous mode keeps
    /// converting one channel, and one ALERT/RDY line cannot be requested by several sensors,
    /// so both need the chip to themselves.
    static func checkSharedChips(_ sensors: [SensorConfiguration], file: String) throws(ConfigurationError) {
        var byChip: [String: [(SensorConfiguration, ADS1115Wiring)]] = [:]
        for sensor in sensors {
            if case .ads1115(let wiring) = sensor.wiring {
                byChip[wiring.chipKey, default: []].append((sensor, wiring))
            }
        }
        for (_, sharing) in byChip.sorted(by: { $0.key < $1.key }) where sharing.count > 1 {
            let names = sharing.map { "\"\($0.0.name)\"" }.joined(separator: ", ")
            if let (sensor, _) = sharing.first(where: { $0.1.config.mode == .continuous }) {
                throw ConfigurationError(
                    file: file, line: sensor.line, key: "sensor \"\(sensor.name)\".mode",
                    message:
                        "mode = \"continuous\" needs the ADS1115 to itself, but \(names) share it; use mode = "
                        + "\"single-shot\""
                )
            }
            if let (sensor, _) = sharing.first(where: { $0.1.alert != nil }) {
                throw ConfigurationError(
                    file: file, line: sensor.line, key: "sensor \"\(sensor.name)\".alert_line",
                    message:
                        "one ALERT/RDY line cannot serve \(names), which share the chip; remove alert_chip and "
                        + "alert_line"
                )
            }
        }
    }
}
