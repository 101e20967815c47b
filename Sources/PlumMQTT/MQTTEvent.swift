/// What the broker connection reports, in the order libmosquitto's network thread saw it.
package enum MQTTEvent: Hashable, Sendable {
    /// The broker accepted the connection (CONNACK success). Sent again after every reconnect:
    /// subscriptions of a clean session are gone and retained state should be published again.
    case connected
    /// The broker answered the connection with a refusal (bad credentials, not authorised, a
    /// protocol version it does not speak); libmosquitto keeps retrying with back-off.
    case connectionRefused(reason: String)
    /// The broker could not be reached when the client started (refused, no route, no such host);
    /// libmosquitto keeps retrying with back-off and sends ``connected`` when it gets through.
    case unreachable(reason: String)
    /// The connection ended: `reason` is nil when ``MQTTClient/stop()`` asked for it, otherwise
    /// why (the broker went away, keep-alive expired). libmosquitto reconnects with back-off.
    case disconnected(reason: String?)
    /// A message on a topic this client subscribed to.
    case message(MQTTMessage)
    /// The broker acknowledged a subscription; `grantedQoS` holds a QoS per filter, or 128 for
    /// a filter it refused.
    case subscribed(messageID: Int, grantedQoS: [Int])
    /// A publish left the client (QoS 0) or was acknowledged by the broker (QoS 1 and 2).
    case published(messageID: Int)
}
