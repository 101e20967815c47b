package import PlumProtocol

/// The Home Assistant side of plumscaled's `[[alert]]` rules: one `binary_sensor` per alert,
/// device class `problem` (on means a problem: the fruit bowl is nearly empty), its state `ON`
/// or `OFF` retained on `<base>/alert/<name>/state`.
extension HomeAssistantDiscovery {
    /// The discovery config of one alert, named after the rule and its sensor.
    package func alertConfig(_ alert: AlertReport) -> (topic: String, payload: DiscoveryPayload) {
        let objectID = Self.alertObjectID(alert.name)
        var payload = base(name: "\(alert.name) alert", objectID: objectID, component: "binary_sensor")
        payload.stateTopic = topics.alert(alert.name)
        payload.payloadOn = "ON"
        payload.payloadOff = "OFF"
        payload.deviceClass = "problem"
        payload.icon = alert.condition == "below" ? "mdi:basket-off-outline" : "mdi:basket-fill"
        return (alertConfigTopic(alert.name), payload)
    }

    /// Where the discovery config of the alert `name` is retained.
    package func alertConfigTopic(_ name: String) -> String {
        topics.discovery(component: "binary_sensor", objectID: Self.alertObjectID(name))
    }

    /// The state payload of an alert: Home Assistant's default `payload_on`/`payload_off`.
    package static func alertState(_ alert: AlertReport) -> String { alert.active ? "ON" : "OFF" }

    /// `alert_<name>`, so an alert never collides with a pan's entities.
    static func alertObjectID(_ name: String) -> String { "alert_\(ScaleIdentity.level(name))" }

    /// The state topic of the alert whose config is on `topic`, or nil for another topic: both
    /// are named after the rule's name made topic-safe (``ScaleIdentity/level(_:)``), which
    /// leaves an already safe name as it is.
    func alertStateTopic(ofConfig topic: String) -> String? {
        let prefix = "\(topics.discoveryPrefix)/binary_sensor/\(topics.identity.nodeID)/alert_"
        guard topic.hasPrefix(prefix), topic.hasSuffix("/config") else { return nil }
        let level = topic.dropFirst(prefix.count).dropLast("/config".count)
        return level.isEmpty || level.contains("/") ? nil : topics.alert(String(level))
    }

    /// True for the config topic of an alert, however named.
    func isAlertConfig(_ topic: String) -> Bool {
        topic.hasPrefix("\(topics.discoveryPrefix)/binary_sensor/\(topics.identity.nodeID)/alert_")
    }
}
