import PlumDaemonConfig
import PlumHomeAssistant
import PlumMQTT
import PlumSettings
import Testing

@testable import PlumMQTTService

@Suite("plumscale-mqtt setup: [mqtt] and the command line")
struct BridgeSetupTests {
    struct NoFile: Error {}

    static func setup(
        _ text: String, broker: String? = nil, scaleID: String? = nil,
        credential: String? = nil, files: [String: String] = [:]
    ) throws -> BridgeSetup {
        let file = try MQTTBridgeConfiguration.parse(text, file: "/etc/plumscale/plumscale.toml")
        return try BridgeSetup.make(
            file, overrides: .init(broker: broker, scaleID: scaleID), version: "0.1.0", credential: credential
        ) {
            path in
            guard let text = files[path] else { throw NoFile() }
            return text
        }
    }

    @Test("--broker and --scale-id override [mqtt]; the client id, will and topics follow the scale id")
    func flagsOverride() throws {
        let setup = try Self.setup(
            "[mqtt]\nhost = \"a.local\"\nport = 1884\nscale_id = \"file\"\n",
            broker: "b.local:1999", scaleID: "flag")
        #expect(setup.mqtt.host == "b.local" && setup.mqtt.port == 1999, "--broker wins over host and port")
        #expect(setup.bridge.topics.identity.scaleID == "flag", "--scale-id wins over scale_id")
        #expect(setup.mqtt.clientID == "plumscale-flag", "the default client id names the scale")
        #expect(
            setup.mqtt.will
                == MQTTMessage(topic: "plumscale/flag/status", text: "offline", qos: .atLeastOnce, retain: true),
            "the last will is offline, retained, on the availability topic")
    }

    @Test(
        "--broker forms: host, host:port, [v6]:port; bad ones say what to write",
        arguments: [
            ("broker.local", "broker.local", 1883), ("10.0.0.2:1884", "10.0.0.2", 1884), ("[::1]:1885", "::1", 1885)
        ])
    func brokerForms(text: String, host: String, port: Int) throws {
        let (parsedHost, parsedPort) = try BridgeSetup.parseBroker(text, defaultPort: 1883)
        #expect(parsedHost == host && parsedPort == port, "\(text) → \(parsedHost):\(parsedPort)")
    }

    @Test("a bad --broker is refused with an example")
    func badBroker() {
        for text in ["host:port", "host:70000", "[::1", ":1883"] {
            let error = #expect(throws: BridgeError.self) { try BridgeSetup.parseBroker(text, defaultPort: 1883) }
            #expect(
                error?.message.contains("--broker \(text)") == true,
                "the error quotes the flag: \(String(describing: error))")
        }
    }

    @Test("the password is the first line of password_file; an empty or unreadable file is refused naming it")
    func passwordFile() throws {
        let text = "[mqtt]\nusername = \"u\"\npassword_file = \"/etc/plumscale/mqtt-password\"\n"
        let setup = try Self.setup(text, scaleID: "x", files: ["/etc/plumscale/mqtt-password": "s3cret\n"])
        #expect(setup.mqtt.username == "u" && setup.mqtt.password == "s3cret", "first line, without its newline")
        let empty = #expect(throws: BridgeError.self) {
            try Self.setup(text, scaleID: "x", files: ["/etc/plumscale/mqtt-password": "\n"])
        }
        #expect(empty?.message.contains("is empty") == true, "\(String(describing: empty))")
        let missing = #expect(throws: BridgeError.self) { try Self.setup(text, scaleID: "x") }
        #expect(missing?.message.contains("password_file") == true, "\(String(describing: missing))")
    }

    @Test("systemd's mqtt-password credential wins over password_file, and needs a username as well")
    func credential() throws {
        let credential = "/run/credentials/plumscale-mqtt.service/mqtt-password"
        let text = "[mqtt]\nusername = \"u\"\npassword_file = \"/etc/plumscale/mqtt-password\"\n"
        let files = [credential: "from-credential\n", "/etc/plumscale/mqtt-password": "from-file\n"]
        let both = try Self.setup(text, scaleID: "x", credential: credential, files: files)
        #expect(both.mqtt.password == "from-credential", "the credential wins")
        let fileOnly = try Self.setup(text, scaleID: "x", files: files)
        #expect(fileOnly.mqtt.password == "from-file", "without a credential, password_file as before")
        let alone = try Self.setup("[mqtt]\nusername = \"u\"\n", scaleID: "x", credential: credential, files: files)
        #expect(alone.mqtt.username == "u" && alone.mqtt.password == "from-credential")
        let noUser = #expect(throws: BridgeError.self) {
            try Self.setup("", scaleID: "x", credential: credential, files: files)
        }
        #expect(noUser?.message.contains("username") == true, "\(String(describing: noUser))")
    }

    @Test("without scale_id the id comes from /etc/machine-id; with neither the error says to set one")
    func machineID() throws {
        let setup = try Self.setup("", files: ["/etc/machine-id": "c0ffee0123456789abcdef0123456789\n"])
        #expect(setup.bridge.topics.identity.scaleID == "c0ffee012345", "the first 12 hex digits of the machine id")
        let error = #expect(throws: BridgeError.self) { try Self.setup("") }
        #expect(error?.message.contains("--scale-id") == true, "\(String(describing: error))")
    }

    @Test("TLS settings reach the client, and the delta default is one division from [scale]")
    func tlsAndDivision() throws {
        let setup = try Self.setup(
            "[scale]\ndivision_grams = 2\n[mqtt]\nca_file = \"/ca.pem\"\nprotocol = \"5\"\n", scaleID: "x")
        #expect(
            setup.mqtt.tls == MQTTTLS(caFile: "/ca.pem") && setup.mqtt.port == 8883 && setup.mqtt.protocolVersion == .v5
        )
        #expect(setup.bridge.policy.effectiveDelta == 2 && setup.bridge.policy.division.decimals == 0, "d = 2 g")
    }

    @Test("web_url and area reach the device; the Pi's serial and model are read from /proc when there, else left out")
    func deviceDetails() throws {
        let text = "[mqtt]\nweb_url = \"http://kitchen.local:8080\"\narea = \"Kitchen\"\n"
        let pi = try Self.setup(
            text, scaleID: "x",
            files: [
                "/proc/cpuinfo": "processor\t: 0\nSerial\t\t: 10000000c0ffee01\n",
                "/proc/device-tree/model": "Raspberry Pi 4 Model B Rev 1.4\0"
            ])
        #expect(
            pi.bridge.device
                == DeviceDetails(
                    configurationURL: "http://kitchen.local:8080", suggestedArea: "Kitchen",
                    serialNumber: "10000000c0ffee01", hardware: "Raspberry Pi 4 Model B Rev 1.4"),
            "\(pi.bridge.device)")
        let elsewhere = try Self.setup("", scaleID: "x")
        #expect(elsewhere.bridge.device == DeviceDetails(), "nothing known: \(elsewhere.bridge.device)")
    }

    @Test("a password to a broker elsewhere without TLS is warned about; with TLS or on loopback it is not")
    func passwordInClear() throws {
        let files = [
            "/etc/plumscale/mqtt-password": "secret\n", "/etc/machine-id": "c0ffee0123456789abcdef0123456789\n"
        ]
        let clear = try Self.setup(
            "[mqtt]\nhost = \"broker.lan\"\nusername = \"scale\"\npassword_file = \"/etc/plumscale/mqtt-password\"\n",
            files: files)
        #expect(clear.warnings.count == 1 && clear.warnings[0].contains("ca_file"), "\(clear.warnings)")
        let tls = try Self.setup(
            "[mqtt]\nhost = \"broker.lan\"\nusername = \"scale\"\npassword_file = \"/etc/plumscale/mqtt-password\"\n"
                + "ca_file = \"/etc/ssl/ca.pem\"\n",
            files: files)
        #expect(tls.warnings.isEmpty, "TLS: no warning")
        let local = try Self.setup(
            "[mqtt]\nhost = \"127.0.0.1\"\nusername = \"scale\"\npassword_file = \"/etc/plumscale/mqtt-password\"\n",
            files: files)
        #expect(local.warnings.isEmpty, "loopback: no warning")
        let anonymous = try Self.setup("[mqtt]\nhost = \"broker.lan\"\n", files: files)
        #expect(anonymous.warnings.isEmpty, "no password, nothing to leak")
    }
}
