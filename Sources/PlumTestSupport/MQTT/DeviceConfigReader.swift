/// A device-based discovery config read the way Home Assistant's MQTT discovery reads it
/// (components/mqtt/discovery.py): each component under `cmps` becomes one entity config with
/// `dev` as its `device`, `o` as its `origin`, and every shared option of the device config it
/// does not set itself. Tests hold the bridge's configs to what Home Assistant would set up.
package struct DeviceConfigReader {
    /// The options a component inherits from the device config (schemas.py `SHARED_OPTIONS`).
    package static let sharedOptions = [
        "availability", "availability_mode", "availability_template", "availability_topic", "command_topic",
        "encoding", "payload_available", "payload_not_available", "state_topic", "qos"
    ]

    package let json: JSONValue
    package let nodeID: String

    /// `payload` as received on `<prefix>/device/<node id>/config`; nil when it is not JSON.
    package init?(_ payload: [UInt8], topic: String) {
        let levels = topic.split(separator: "/")
        guard levels.count == 4, levels[1] == "device", let json = JSONValue.parse(payload) else { return nil }
        self.json = json
        nodeID = String(levels[2])
    }

    /// The components, object id → its JSON as sent (with `p`).
    package var components: [String: JSONValue] { json["cmps"]?.object ?? [:] }

    /// The object ids of components that hold only their platform: entities being removed.
    package var removed: Set<String> { Set(components.filter { $0.value.keys == ["p"] }.keys) }

    /// Each entity as Home Assistant sets it up, by the per-entity topic that has the same
    /// discovery id (`<prefix>/<platform>/<node id>/<object id>/config`).
    package var entities: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, component) in components where !removed.contains(key) {
            guard var fields = component.object, let platform = fields.removeValue(forKey: "p")?.string else {
                continue
            }
            fields["device"] = json["dev"]
            fields["origin"] = json["o"]
            for option in Self.sharedOptions where fields[option] == nil { fields[option] = json[option] }
            result["homeassistant/\(platform)/\(nodeID)/\(key)/config"] = .object(fields)
        }
        return result
    }
}
