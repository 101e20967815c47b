import PlumHomeAssistant
import PlumMQTT
import PlumSettings

/// From the configuration file and the command line to the MQTT client's and the bridge's
/// settings: the flags override `[mqtt]`.
package struct BridgeSetup {
    package var mqtt: MQTTConfiguration
    package var bridge: BridgeSettings
    /// What is allowed but unwise, for the log at start: a password sent in clear.
    package var warnings: [String] = []

    /// What the command line says over `[mqtt]`.
    package struct Overrides {
        package var broker: String?
        package var scaleID: String?

        package init(broker: String? = nil, scaleID: String? = nil) {
            self.broker = broker
            self.scaleID = scaleID
        }
    }

    /// - Parameters:
    ///   - credential: the path of the `mqtt-password` credential systemd passed, when it is set
    ///     (``ServiceCredential/path(_:in:)``); it wins over `[mqtt] password_file`.
    ///   - readFile: reads the password file and /etc/machine-id (a parameter, so tests need no files).
    package static func make(
        _ file: MQTTBridgeConfiguration, overrides: Overrides, version: String, credential: String? = nil,
        readFile: (String) throws -> String
    ) throws(BridgeError) -> BridgeSetup {
        let settings = file.mqtt
        var host = settings.host
        var port = settings.effectivePort
        if let broker = overrides.broker { (host, port) = try parseBroker(broker, defaultPort: port) }
        let scaleID = overrides.scaleID ?? settings.scaleID
        if let scaleID, scaleID.isEmpty || scaleID != ScaleIdentity.level(scaleID) {
            throw BridgeError("--scale-id \(scaleID): use letters, digits, _ or -, such as kitchen")
        }
        let machineID = scaleID == nil ? try? readFile("/etc/machine-id") : nil
        let identity = try ScaleIdentity(configured: scaleID, machineID: machineID)
        var password: String?
        if let credential {
            do {
                password = String(try readFile(credential).split(separator: "\n").first ?? "")
            } catch {
                throw BridgeError("the credential \(credential): cannot read \(error)")
            }
            if settings.username == nil {
                throw BridgeError(
                    "the credential mqtt-password holds a password but \(file.source) sets no [mqtt] username; "
                        + "set username as well (a broker takes a password only with a user name)")
            }
        } else if let path = settings.passwordFile {
            do {
                let text = try readFile(path)
                password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            } catch {
                throw BridgeError(
                    "\(file.source): [mqtt] password_file: cannot read \(error); the bridge's user must be able to "
                        + "read it (systemd: put the password in /etc/plumscale/credentials/mqtt-password instead)"
                )
            }
            if password?.isEmpty == true {
                throw BridgeError(
                    "\(file.source): [mqtt] password_file \(path) is empty; put the password on its first line")
            }
        }
        let tls =
            settings.usesTLS
            ? MQTTTLS(
                caFile: settings.caFile, caDirectory: settings.caDirectory, certificateFile: settings.certFile,
                keyFile: settings.keyFile)
            : nil
        let qos = MQTTQoS(rawValue: settings.qos) ?? .atLeastOnce
        let topics = BridgeTopics(
            prefix: settings.topicPrefix, discoveryPrefix: settings.discoveryPrefix, identity: identity)
        let bridge = BridgeSettings(
            topics: topics,
            policy: .init(
                division: DivisionRounding(grams: file.scale.division), delta: settings.deltaGrams,
                heartbeatSeconds: settings.heartbeatSeconds, liveRate: settings.liveRate),
            qos: qos, retain: settings.retain, version: version,
            device: DeviceDetails(
                configurationURL: settings.webURL, suggestedArea: settings.area,
                serialNumber: DeviceDetails.serial(
                    deviceTree: try? readFile("/proc/device-tree/serial-number"),
                    cpuinfo: try? readFile("/proc/cpuinfo")),
                hardware: DeviceDetails.model(deviceTree: try? readFile("/proc/device-tree/model"))))
        let mqtt = MQTTConfiguration(
            host: host, port: port, clientID: settings.clientID ?? "plumscale-\(identity.scaleID)",
            protocolVersion: settings.protocolVersion == "5" ? .v5 : .v311, username: settings.username,
            password: password, tls: tls, will: bridge.will)
        var warnings: [String] = []
        if password != nil, tls == nil, !isLoopback(host) {
            warnings.append(
                "the MQTT password goes to \(host):\(port) in clear, readable by anyone on the way; set [mqtt] "
                    + "ca_file to the broker's CA to use TLS (port 8883), or run the broker on this machine")
        }
        return BridgeSetup(mqtt: mqtt, bridge: bridge, warnings: warnings)
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    package static func parseBroker(_ text: String, defaultPort: Int) throws(BridgeError) -> (String, Int) {
        var host = Substring(text)
        var port = defaultPort
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw BridgeError("--broker \(text): missing ] after the IPv6 address")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else {
                    throw BridgeError("--broker \(text): expected [address]:port, such as [::1]:1883")
                }
                port = number
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard let number = Int(text[text.index(after: colon)...]) else {
                throw BridgeError("--broker \(text): the port must be a number, such as broker.local:1883")
            }
            host = text[..<colon]
            port = number
        }
        guard !host.isEmpty, (1...65_535).contains(port) else {
            throw BridgeError(
                "--broker \(text): expected HOST:PORT with a port from 1 to 65535, such as broker.local:1883")
        }
        return (String(host), port)
    }
}

/// Whether `host` is this machine: only then may a password travel without TLS.
func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    return host == "localhost" || host == "::1" || host.hasPrefix("127.") || host.hasPrefix("::ffff:127.")
}
