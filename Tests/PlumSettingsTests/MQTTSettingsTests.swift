import PlumDaemonConfig
import PlumSettings
import Testing

@Suite("[mqtt] configuration")
struct MQTTSettingsTests {
    static let file = "/etc/plumscale/plumscale.toml"

    @Test("an empty file gives the documented defaults")
    func defaults() throws {
        let mqtt = try MQTTBridgeConfiguration.parse("", file: Self.file).mqtt
        #expect(mqtt.host == "localhost" && mqtt.effectivePort == 1883, "default broker is localhost:1883")
        #expect(mqtt.topicPrefix == "plumscale" && mqtt.discoveryPrefix == "homeassistant", "default prefixes")
        #expect(mqtt.qos == 1 && mqtt.retain, "configs and states are retained at QoS 1 by default")
        #expect(mqtt.deltaGrams == nil, "delta defaults to one division, decided where the division is known")
        #expect(mqtt.liveRate == 2 && mqtt.heartbeatSeconds == 300, "live at 2 Hz, heartbeat every 5 minutes")
    }

    @Test("every key is read into its typed setting, and [scale] gives the division")
    func everyKey() throws {
        let text = """
            [scale]
            division_grams = 0.5
            [mqtt]
            host = "broker.local"
            port = 8884
            protocol = "5"
            ca_file = "/etc/ssl/ca.pem"
            cert_file = "/etc/plumscale/client.pem"
            key_file = "/etc/plumscale/client.key"
            username = "kitchen"
            password_file = "/etc/plumscale/mqtt-password"
            client_id = "scale-1"
            scale_id = "kitchen"
            topic_prefix = "shop/scales"
            discovery_prefix = "ha"
            qos = 2
            retain = false
            delta = 2.5
            heartbeat = 60
            live_rate = 0
            """
        let configuration = try MQTTBridgeConfiguration.parse(text, file: Self.file)
        let mqtt = configuration.mqtt
        #expect(configuration.scale.divisionGrams == 0.5, "the division comes from [scale]")
        #expect(mqtt.host == "broker.local" && mqtt.effectivePort == 8884 && mqtt.protocolVersion == "5")
        #expect(mqtt.usesTLS && mqtt.caFile == "/etc/ssl/ca.pem" && mqtt.keyFile == "/etc/plumscale/client.key")
        #expect(mqtt.username == "kitchen" && mqtt.passwordFile == "/etc/plumscale/mqtt-password")
        #expect(mqtt.clientID == "scale-1" && mqtt.scaleID == "kitchen")
        #expect(mqtt.topicPrefix == "shop/scales" && mqtt.discoveryPrefix == "ha")
        #expect(
            mqtt.qos == 2 && !mqtt.retain && mqtt.deltaGrams == 2.5 && mqtt.heartbeatSeconds == 60 && mqtt.liveRate == 0
        )
    }

    @Test("TLS without a port set uses 8883")
    func tlsPort() throws {
        let mqtt = try MQTTBridgeConfiguration.parse("[mqtt]\nca_file = \"/etc/ssl/ca.pem\"\n", file: Self.file).mqtt
        #expect(mqtt.effectivePort == 8883, "MQTT over TLS listens on 8883 by convention")
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var says: [String]
        var testDescription: String { says[0] }
    }

    @Test(
        "bad input is refused naming file, line and what to do",
        arguments: [
            BadCase(
                text: "[mqtt]\nhost = \"b\"\npassword = \"hunter2\"\n", line: 3,
                says: ["password_file", "never", "/etc/plumscale/credentials/mqtt-password"]),
            BadCase(text: "[mqtt]\nhots = \"b\"\n", line: 2, says: ["unknown key hots", "host"]),
            BadCase(text: "[mqtt]\nqos = 3\n", line: 2, says: ["qos = 3 is out of range", "0 to 2"]),
            BadCase(text: "[mqtt]\nca_file = \"/ca.pem\"\ncert_file = \"/c.pem\"\n", line: 3, says: ["key_file"]),
            BadCase(
                text: "[mqtt]\ncert_file = \"/c.pem\"\nkey_file = \"/k.pem\"\n", line: 2, says: ["needs TLS", "ca_file"]
            ),
            BadCase(text: "[mqtt]\npassword_file = \"mqtt-password\"\n", line: 2, says: ["absolute path"]),
            BadCase(
                text: "[mqtt]\nusername = \"u\"\npassword_file = \"/p\"\nscale_id = \"my scale\"\n", line: 4,
                says: ["scale_id", "letters, digits"]),
            BadCase(text: "[mqtt]\ntopic_prefix = \"plum/#\"\n", line: 2, says: ["not a topic prefix"]),
            BadCase(text: "[mqtt]\nprotocol = \"4\"\n", line: 2, says: ["3.1.1 or 5"]),
            BadCase(text: "[mqtt]\nlive_rate = 100\n", line: 2, says: ["live_rate", "0 to 50"]),
            BadCase(text: "[mqtt]\npassword_file = \"/p\"\n", line: 2, says: ["needs a username"]),
            BadCase(text: "[mqtt]\nweb_url = \"kitchen.local:8080\"\n", line: 2, says: ["web_url", "http://"]),
            BadCase(text: "[mqtt]\narea = \"\"\n", line: 2, says: ["area is empty"])
        ])
    func badInput(_ bad: BadCase) {
        let error = #expect(throws: ConfigurationError.self) {
            try MQTTBridgeConfiguration.parse(bad.text, file: Self.file)
        }
        #expect(error?.file == Self.file, "the error names the file")
        #expect(error?.line == bad.line, "the error names line \(bad.line): \(String(describing: error))")
        for phrase in bad.says {
            #expect(
                error?.description.contains(phrase) == true,
                "the error says \"\(phrase)\": \(String(describing: error))")
        }
    }

    @Test("plumscaled's own parser accepts a file with an [mqtt] table")
    func daemonAcceptsMQTTTable() throws {
        let text = """
            [[sensor]]
            name = "left"
            kind = "simulated-hx711"
            [mqtt]
            host = "broker.local"
            """
        let configuration = try PlumConfiguration.parse(text, file: Self.file)
        #expect(configuration.sensors.map(\.name) == ["left"], "the daemon reads its sensors and ignores [mqtt]")
    }
}

/// One type for every layer of scale settings: what a layer names wins, what it does not name
/// is the layer's below, and what no layer names is the default.
@Suite("Scale settings in layers")
struct ScaleSettingsLayerTests {
    @Test("a layer over another replaces only what it names; the defaults fill what none names")
    func layersReplaceWhatTheyName() {
        let scale = ScaleSettings(capacityGrams: 5000, divisionGrams: 1, zeroTracking: false, restoreTare: false)
        var profile = ScaleSettings(divisionGrams: 2, averagingMilliseconds: 250)
        profile.minimumWeightDivisions = 0
        let sensor = ScaleSettings(zeroTracking: true)
        let settings = scale.overridden(by: profile).overridden(by: sensor)
        #expect(settings.capacity == 5000 && settings.division == 2 && settings.tracksZero)
        #expect(settings.averagingMilliseconds == 250 && settings.minimumWeightDivisions == 0)
        #expect(!settings.restoresTare && settings.setsInitialZero && !settings.recognizesContainers)
        #expect(ScaleSettings().overridden(by: ScaleSettings()) == ScaleSettings() && ScaleSettings().isEmpty)
        #expect(ScaleSettings().capacity == 385 && ScaleSettings().division == 0.1)
    }
}
