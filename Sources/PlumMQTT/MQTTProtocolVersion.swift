/// The MQTT protocol level the client speaks (libmosquitto's `MOSQ_OPT_PROTOCOL_VERSION`).
package enum MQTTProtocolVersion: String, Hashable, Sendable, CaseIterable {
    /// MQTT 3.1.1 (protocol level 4): what every broker speaks.
    case v311 = "3.1.1"
    /// MQTT 5.0 (protocol level 5).
    case v5 = "5"
}
