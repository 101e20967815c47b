/// One application message: what is published, what a will carries, what a subscription receives.
public struct MQTTMessage: Hashable, Sendable {
    /// The topic name, such as `plumscale/kitchen/left/state`. No wildcards when publishing.
    public var topic: String
    /// The payload bytes; empty with `retain` removes the retained message of the topic.
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// The broker keeps the last retained message of a topic for subscribers that come later.
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message with a UTF-8 text payload.
    public init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// The payload as UTF-8 text (invalid bytes repaired).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
