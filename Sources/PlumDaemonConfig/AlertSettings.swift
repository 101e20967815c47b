internal import PlumSettings
internal import TOMLKit

/// One `[[alert]]` rule: a sensor's net weight below or above a threshold for a while.
///
///     [[alert]]
///     name = "fruit-low"
///     sensor = "bowl"
///     below = 200        # grams, net
///     hysteresis = 50    # cleared above 250 g
///     hold = 30          # seconds the weight must stay below 200 g
///     cue = true         # pulse the [cue] line when raised
package struct AlertSettings: Hashable, Sendable {
    /// Which side of the threshold raises the alert.
    package enum Direction: String, Hashable, Sendable {
        case below, above
    }

    package var name: String
    package var sensor: String
    package var direction: Direction
    /// The threshold in net grams.
    package var grams: Double
    package var hysteresisGrams: Double
    package var holdSeconds: Double
    package var cue: Bool
    /// The line of the `[[alert]]` table, for messages about it.
    package var line: Int?

    package init(
        name: String, sensor: String, direction: Direction, grams: Double, hysteresisGrams: Double = 0,
        holdSeconds: Double = 0, cue: Bool = false, line: Int? = nil
    ) {
        self.name = name
        self.sensor = sensor
        self.direction = direction
        self.grams = grams
        self.hysteresisGrams = hysteresisGrams
        self.holdSeconds = holdSeconds
        self.cue = cue
        self.line = line
    }

    /// Every `[[alert]]` of the file, checked against the sensors and the `[cue]` output.
    static func parseAll(
        table: TOMLTable, file: String, locator: SourceLocator, sensors: [SensorConfiguration], hasCueOutput: Bool
    ) throws(ConfigurationError) -> [AlertSettings] {
        guard let value = table["alert"] else { return [] }
        guard let array = value.array else {
            throw ConfigurationError(
                file: file, key: "alert", message: "expected [[alert]] tables, one per alert")
        }
        var alerts: [AlertSettings] = []
        for index in 0..<array.count {
            let section = SourceLocator.Section.arrayElement("alert", index: index)
            guard let alertTable = array[index].table else {
                throw ConfigurationError(
                    file: file, line: locator.line(of: section), key: "alert[\(index)]",
                    message: "expected an [[alert]] table")
            }
            let alert = try parse(
                alertTable, index: index, file: file, locator: locator, section: section, sensors: sensors,
                hasCueOutput: hasCueOutput)
            if let earlier = alerts.first(where: { $0.name == alert.name }) {
                throw ConfigurationError(
                    file: file, line: alert.line, key: "alert \"\(alert.name)\"",
                    message: "the name \"\(alert.name)\" is already used by the alert on line \(earlier.line ?? 0); "
                        + "give each alert its own name")
            }
            alerts.append(alert)
        }
        return alerts
    }

    static func parse(
        _ table: TOMLTable, index: Int, file: String, locator: SourceLocator, section: SourceLocator.Section,
        sensors: [SensorConfiguration], hasCueOutput: Bool
    ) throws(ConfigurationError) -> AlertSettings {
        var reader = TOMLReader(table: table, file: file, path: "alert[\(index)]", locator: locator, section: section)
        let name = try reader.requiredString("name", example: "\"fruit-low\"")
        guard SensorConfiguration.isValidName(name) else {
            throw reader.error(
                "name", "name = \"\(name)\" is not allowed; use letters, digits, '-' and '_' (1 to 32 characters)")
        }
        reader = TOMLReader(table: table, file: file, path: "alert \"\(name)\"", locator: locator, section: section)
        _ = try reader.string("name")
        let sensor = try reader.requiredString("sensor", example: "\"\(sensors.first?.name ?? "left")\"")
        guard sensors.contains(where: { $0.name == sensor }) else {
            let names = sensors.map { "\"\($0.name)\"" }
            throw reader.error(
                "sensor", "sensor = \"\(sensor)\" is not a configured sensor; use \(TOMLReader.list(names))")
        }
        let below = try reader.double("below")
        let above = try reader.double("above")
        let direction: Direction
        let grams: Double
        switch (below, above) {
        case (let value?, nil):
            (direction, grams) = (.below, value)
        case (nil, let value?):
            (direction, grams) = (.above, value)
        case (_?, _?):
            throw reader.error(
                "above", "an alert has either below or above, not both; make a second [[alert]] for the other side")
        case (nil, nil):
            throw reader.error(nil, "missing key below or above; for example below = 200 (net grams)")
        }
        guard grams.isFinite else {
            throw reader.error(direction.rawValue, "\(direction.rawValue) must be a number of grams, such as 200")
        }
        let hysteresis = try reader.double("hysteresis") ?? 0
        guard hysteresis >= 0, hysteresis.isFinite else {
            throw reader.error(
                "hysteresis", "hysteresis = \(hysteresis) is not allowed; use 0 or more grams, such as hysteresis = 20")
        }
        let hold = try reader.double("hold") ?? 0
        guard hold >= 0, hold <= 86_400, hold.isFinite else {
            throw reader.error("hold", "hold = \(hold) is not allowed; use 0 to 86400 seconds, such as hold = 30")
        }
        let cue = try reader.bool("cue") ?? false
        if cue, !hasCueOutput {
            throw reader.error(
                "cue", "cue = true needs a cue output; add a [cue] table with chip and line, or remove cue")
        }
        try reader.rejectUnknownKeys()
        return AlertSettings(
            name: name, sensor: sensor, direction: direction, grams: grams, hysteresisGrams: hysteresis,
            holdSeconds: hold, cue: cue, line: locator.line(of: section))
    }
}
