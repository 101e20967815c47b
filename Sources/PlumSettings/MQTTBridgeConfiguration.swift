internal import TOMLKit

/// What `plumscale-mqtt` reads from `plumscale.toml`: `[mqtt]`, and the division from `[scale]`
/// (display precision and the default delta). The other tables belong to plumscaled, which
/// checks them; the bridge ignores them.
package struct MQTTBridgeConfiguration: Hashable, Sendable {
    package var mqtt: MQTTSettings
    package var scale: ScaleSettings
    /// The file it was read from, or "<built-in>".
    package var source: String

    package init(
        mqtt: MQTTSettings = MQTTSettings(), scale: ScaleSettings = ScaleSettings(), source: String = "<built-in>"
    ) {
        self.mqtt = mqtt
        self.scale = scale
        self.source = source
    }

    /// Parses configuration text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ConfigurationError) -> MQTTBridgeConfiguration {
        let table = try TOMLTable.parse(text, file: file)
        let locator = SourceLocator(text: text)
        let root = TOMLReader(table: table, file: file, path: "", locator: locator, section: .root)
        var result = MQTTBridgeConfiguration(source: file)
        if let value = table["mqtt"] {
            guard let mqttTable = value.table else { throw root.error("mqtt", "expected a table [mqtt]") }
            result.mqtt = try MQTTSettings(
                TOMLReader(table: mqttTable, file: file, path: "mqtt", locator: locator, section: .table("mqtt")))
        }
        if let value = table["scale"] {
            guard let scaleTable = value.table else { throw root.error("scale", "expected a table [scale]") }
            result.scale = try ScaleSettings(
                TOMLReader(table: scaleTable, file: file, path: "scale", locator: locator, section: .table("scale")))
        }
        return result
    }
}
