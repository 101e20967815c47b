/// How an ``MQTTClient`` connects: broker, identity, credentials, TLS and last will.
package struct MQTTConfiguration: Hashable, Sendable {
    package var host: String
    /// 1883 for plain MQTT, 8883 for MQTT over TLS by convention.
    package var port: Int
    /// The client identifier; nil lets libmosquitto make a random one (needs `cleanSession`).
    package var clientID: String?
    package var protocolVersion: MQTTProtocolVersion
    /// Seconds between PINGREQs when idle; the broker drops (and publishes the will of) a client
    /// silent for 1.5 times this.
    package var keepAlive: Int
    /// Start with no session state on the broker (MQTT 3.1.1 clean session, MQTT 5 clean start).
    package var cleanSession: Bool
    package var username: String?
    /// The password, read by the caller from a file (never from the configuration itself).
    package var password: String?
    package var tls: MQTTTLS?
    /// Published by the broker when this client goes away without disconnecting.
    package var will: MQTTMessage?
    /// libmosquitto's reconnect back-off: the first delay and the largest, in seconds,
    /// doubling in between.
    package var reconnectDelay: ClosedRange<Int>

    package init(
        host: String = "localhost", port: Int = 1883, clientID: String? = nil,
        protocolVersion: MQTTProtocolVersion = .v311,
        keepAlive: Int = 30, cleanSession: Bool = true, username: String? = nil, password: String? = nil,
        tls: MQTTTLS? = nil, will: MQTTMessage? = nil, reconnectDelay: ClosedRange<Int> = 1...30
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.protocolVersion = protocolVersion
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.username = username
        self.password = password
        self.tls = tls
        self.will = will
        self.reconnectDelay = reconnectDelay
    }

    /// `host:port`, with an IPv6 address in brackets, for messages.
    package var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
