package import PlumMQTT

/// What the bridge publishes and how, from `[mqtt]` and `[scale]` (and the command line).
package struct BridgeSettings: Hashable, Sendable {
    package var topics: BridgeTopics
    package var policy: PublishingPolicy.Settings
    package var qos: MQTTQoS
    /// Retain discovery configs, availability, states and the heaviest pan.
    package var retain: Bool
    /// The bridge's release, in the device registry and the discovery origin.
    package var version: String
    /// The device registry's extra fields: plumscale-web's address, area, serial, model.
    package var device: DeviceDetails
    /// The discovery origin's `support_url` (http or https), left out when nil.
    package var supportURL: String?

    package init(
        topics: BridgeTopics, policy: PublishingPolicy.Settings, qos: MQTTQoS = .atLeastOnce,
        retain: Bool = true,
        version: String, device: DeviceDetails = .init(), supportURL: String? = nil
    ) {
        self.device = device
        self.supportURL = supportURL
        self.topics = topics
        self.policy = policy
        self.qos = qos
        self.retain = retain
        self.version = version
    }

    /// The will the MQTT connection must carry: `offline`, retained, on the availability topic.
    package var will: MQTTMessage {
        MQTTMessage(topic: topics.availability, text: "offline", qos: qos, retain: true)
    }
}
