internal import TOMLKit

/// Settings of `plumscale-mqtt` from `[mqtt]`: the broker, how to reach it, and what to publish.
///
///     [mqtt]
///     host = "broker.local"
///     port = 8883
///     ca_file = "/etc/ssl/certs/ca-certificates.crt"
///     username = "kitchen-scale"
///     password_file = "/etc/plumscale/mqtt-password"
///     scale_id = "kitchen"
package struct MQTTSettings: Hashable, Sendable {
    package var host: String = "localhost"
    /// nil: 8883 with TLS, 1883 without.
    package var port: Int?
    /// `"3.1.1"` or `"5"`.
    package var protocolVersion: String = "3.1.1"
    /// TLS: the CA bundle or directory the broker's certificate is checked against; setting
    /// either turns TLS on.
    package var caFile: String?
    package var caDirectory: String?
    /// TLS client authentication: this client's certificate and key.
    package var certFile: String?
    package var keyFile: String?
    package var username: String?
    /// A file holding the password on its first line (mode 0600 or 0640), never the password itself.
    package var passwordFile: String?
    /// nil: `plumscale-<scale id>`.
    package var clientID: String?
    /// Names this scale in topics and unique ids; nil: from /etc/machine-id.
    package var scaleID: String?
    package var topicPrefix: String = "plumscale"
    package var discoveryPrefix: String = "homeassistant"
    /// QoS of everything published: 0, 1 or 2.
    package var qos: Int = 1
    /// Whether configs and states are retained (the broker hands them to late subscribers).
    package var retain: Bool = true
    /// A new stable weight is published when it differs from the last published by at least
    /// this many grams; nil: one division.
    package var deltaGrams: Double?
    /// Seconds between republishing an unchanged state, so a consumer sees the bridge is alive.
    package var heartbeatSeconds: Double = 300
    /// The live topic's limit in messages per second per pan; 0 turns the live topic off.
    package var liveRate: Double = 2
    /// plumscale-web's address, such as `http://kitchen.local:8080`: the device's "visit" link in
    /// Home Assistant (`configuration_url`); nil: no link.
    package var webURL: String?
    /// The area Home Assistant suggests for the scale when it is first added, such as "Kitchen".
    package var area: String?

    package init() {}

    /// The broker port in effect.
    package var effectivePort: Int { port ?? (usesTLS ? 8883 : 1883) }
    package var usesTLS: Bool { caFile != nil || caDirectory != nil }

    package init(_ reader: TOMLReader) throws(ConfigurationError) {
        var reader = reader
        host = try reader.string("host") ?? host
        if host.isEmpty || host.contains(where: { $0 == " " || $0 == "/" }) {
            throw reader.error(
                "host",
                "host = \"\(host)\" is not a host name or address; use one such as \"broker.local\" or \"192.168.1.10\""
            )
        }
        port = try reader.int("port", in: 1...65_535, unit: "(1883 for MQTT, 8883 for MQTT over TLS)")
        protocolVersion = try reader.choice("protocol", [("3.1.1", "3.1.1"), ("5", "5")]) ?? protocolVersion
        caFile = try Self.path(&reader, "ca_file")
        caDirectory = try Self.path(&reader, "ca_directory")
        certFile = try Self.path(&reader, "cert_file")
        keyFile = try Self.path(&reader, "key_file")
        if (certFile == nil) != (keyFile == nil) {
            throw reader.error(
                certFile == nil ? "key_file" : "cert_file",
                "cert_file and key_file go together: a client certificate needs its key; set both or neither")
        }
        if certFile != nil && !usesTLS {
            throw reader.error(
                "cert_file", "a client certificate needs TLS; set ca_file (or ca_directory) to the broker's CA as well")
        }
        username = try reader.string("username")
        if reader.has("password") {
            throw reader.error(
                "password",
                "a password is never written in plumscale.toml, which many can read; put it alone in the "
                    + "credential file /etc/plumscale/credentials/mqtt-password (install -m 600), which "
                    + "plumscale-mqtt.service loads, or in a file named by password_file"
            )
        }
        passwordFile = try Self.path(&reader, "password_file")
        if passwordFile != nil && username == nil {
            throw reader.error("password_file", "a password needs a username; set username as well")
        }
        clientID = try reader.string("client_id")
        if let clientID, clientID.isEmpty || clientID.utf8.count > 65_535 {
            throw reader.error("client_id", "client_id must not be empty; leave it out for plumscale-<scale id>")
        }
        scaleID = try reader.string("scale_id")
        if let scaleID { try Self.requireTopicLevel(scaleID, key: "scale_id", reader: reader) }
        topicPrefix = try reader.string("topic_prefix") ?? topicPrefix
        try Self.requireTopicPrefix(topicPrefix, key: "topic_prefix", reader: reader)
        discoveryPrefix = try reader.string("discovery_prefix") ?? discoveryPrefix
        try Self.requireTopicPrefix(discoveryPrefix, key: "discovery_prefix", reader: reader)
        qos = try reader.int("qos", in: 0...2, unit: "(0 at most once, 1 at least once, 2 exactly once)") ?? qos
        retain = try reader.bool("retain") ?? retain
        deltaGrams = try reader.double("delta", in: 0...1_000_000, unit: "g")
        heartbeatSeconds = try reader.double("heartbeat", in: 1...86_400, unit: "s") ?? heartbeatSeconds
        liveRate =
            try reader.double("live_rate", in: 0...50, unit: "messages per second (0 turns the live topic off)")
            ?? liveRate
        webURL = try reader.string("web_url")
        // contains(where:), not contains(" "): the string overload is Foundation's, and
        // plumscaled, which reads this file too, links no Foundation.
        if let webURL,
            !(webURL.hasPrefix("http://") || webURL.hasPrefix("https://")) || webURL.contains(where: \.isWhitespace)
        {
            throw reader.error(
                "web_url",
                "web_url = \"\(webURL)\" is not an http(s) address; use one such as \"http://kitchen.local:8080\"")
        }
        area = try reader.string("area")
        if area?.isEmpty == true {
            throw reader.error("area", "area is empty; leave it out or name one, such as \"Kitchen\"")
        }
        try reader.rejectUnknownKeys()
    }

    private static func path(_ reader: inout TOMLReader, _ key: String) throws(ConfigurationError) -> String? {
        guard let path = try reader.string(key) else { return nil }
        guard path.hasPrefix("/") else {
            let example = key == "password_file" ? "mqtt-password" : "mqtt.pem"
            throw reader.error(
                key,
                "\(key) = \"\(path)\" must be an absolute path, such as \"/etc/plumscale/\(example)\""
            )
        }
        return path
    }

    /// One level of a topic: no `/`, no wildcards, no spaces, so ids and topics stay simple.
    package static func requireTopicLevel(_ text: String, key: String, reader: TOMLReader) throws(ConfigurationError) {
        let valid =
            !text.isEmpty && text.utf8.count <= 64
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        guard valid else {
            throw reader.error(
                key,
                "\(key) = \"\(text)\" is not allowed; use letters, digits, _ or - (at most 64), such as \"kitchen\"")
        }
    }

    package static func requireTopicPrefix(_ text: String, key: String, reader: TOMLReader) throws(ConfigurationError) {
        let valid =
            !text.isEmpty && !text.hasPrefix("/") && !text.hasSuffix("/")
            && !text.contains(where: { $0 == "+" || $0 == "#" || $0 == " " || $0 == "\0" })
        guard valid else {
            throw reader.error(
                key,
                "\(key) = \"\(text)\" is not a topic prefix; use levels without wildcards or a leading or trailing /, "
                    + "such as \"plumscale\" or \"shop/scales\""
            )
        }
    }
}
