/// One application message: what is published, what a will carries, what a subscription receives.
package struct MQTTMessage: Hashable, Sendable {
    /// The topic name, such as `plumscale/kitchen/left/state`. No wildcards when publishing.
    package var topic: String
    /// The payload bytes; empty with `retain` removes the retained message of the topic.
    package var payload: [UInt8]
    package var qos: MQTTQoS
    /// The broker keeps the last retained message of a topic for subscribers that come later.
    package var retain: Bool

    package init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message with a UTF-8 text payload.
    package init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// The payload as UTF-8 text (invalid bytes repaired).
    package var text: String { String(decoding: payload, as: UTF8.self) }
}
