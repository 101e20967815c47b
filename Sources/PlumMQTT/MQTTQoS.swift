/// The MQTT quality of service of a publish or a subscription (MQTT 3.1.1 §4.3, MQTT 5 §4.3).
package enum MQTTQoS: Int, Hashable, Sendable, CaseIterable, Comparable {
    /// At most once: fire and forget.
    case atMostOnce = 0
    /// At least once: acknowledged (PUBACK), may arrive twice.
    case atLeastOnce = 1
    /// Exactly once: the four-packet handshake.
    case exactlyOnce = 2

    package static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}
