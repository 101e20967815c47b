import Foundation
import PlumMQTT
import PlumTestSupport
import Testing

/// docs/examples/mosquitto.acl, the ACL docs/home-assistant.md tells the administrator to
/// install, in a real mosquitto with `allow_anonymous false` and a password file made by
/// mosquitto_passwd. The bridge is the real plumscale-mqtt over a simulated plumscaled, logging
/// in with the password systemd would pass it as the credential `mqtt-password`.
@Suite("The documented broker ACL, on a real mosquitto", .serialized, .timeLimit(.minutes(3)))
struct BrokerACLTests {
    static let aclFile = repositoryRoot + "/docs/examples/mosquitto.acl"
    static let scale = "counter-1"
    static let users = [
        "homeassistant": "home assistant's password", "counter-1": "the first scale's password",
        "counter-2": "the second scale's password"
    ]

    /// mosquitto with the documented ACL, every user of ``users`` in its password file.
    static func broker(in directory: TemporaryDirectory) async throws -> MosquittoBroker {
        let passwords = directory.file("passwd")
        for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
            let made = try await ChildProcess.run(
                "mosquitto_passwd", ["-b"] + (index == 0 ? ["-c"] : []) + [passwords, user, password])
            try #require(made.status == 0, "mosquitto_passwd: \(made.stderr)")
        }
        // Started as root, mosquitto reads the file as its own user 'mosquitto'.
        chmod(directory.path, 0o711)
        chmod(passwords, 0o644)
        // Later lines win over the fixture's allow_anonymous true; debug logs every denied publish.
        return try await MosquittoBroker.start(
            configuration: "allow_anonymous false\npassword_file \(passwords)\nacl_file \(aclFile)\nlog_type debug\n")
    }

    @Test("Home Assistant's press reaches the bridge, another scale's is dropped, the bridge writes all its topics")
    func documentedACL() async throws {
        let directory = try TemporaryDirectory(prefix: "plumacl")
        let broker = try await Self.broker(in: directory)
        let daemon = try await BridgeProcessTests.daemon()
        let credentials = try directory.makeDirectory("credentials")
        try directory.write("credentials/mqtt-password", Self.users[Self.scale]! + "\n")
        let config = try directory.write(
            "plumscale.toml", "[scale]\ndivision_grams = 0.1\n[mqtt]\nusername = \"\(Self.scale)\"\nlive_rate = 1\n")
        let bridge = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)",
                "--scale-id", Self.scale
            ],
            environment: ["CREDENTIALS_DIRECTORY": credentials])
        let homeAssistant = try await MessageCollector(
            port: broker.port, username: "homeassistant", password: Self.users["homeassistant"],
            subscribe: ["plumscale/#", "homeassistant/#"])

        // The bridge, as its own user, writes every topic it has: none may be denied.
        let base = "plumscale/\(Self.scale)"
        let expected = [
            "\(base)/status", "\(base)/daemon", "\(base)/heaviest", "\(base)/left/availability", "\(base)/left/state",
            "\(base)/left/live", "\(base)/right/state"
        ]
        #expect(
            await eventually(within: .seconds(60)) {
                let topics = Set(homeAssistant.messages.map(\.topic))
                return expected.allSatisfy(topics.contains)
                    && topics.contains("homeassistant/device/plumscale_\(Self.scale)/config")
            },
            "the bridge's topics reach Home Assistant: \(Self.topics(homeAssistant)); bridge: \(bridge.stderr)")
        #expect(
            !broker.log.contains("Denied PUBLISH from plumscale-\(Self.scale) "),
            "the ACL lets the bridge write its topics: \(Self.denials(broker.log))")

        // Another scale's user is connected and may write its own topics, but not press ours.
        let intruder = try await MessageCollector(
            port: broker.port, username: "counter-2", password: Self.users["counter-2"],
            subscribe: ["plumscale/counter-2/+/+/set"])
        try intruder.client.publish(MQTTMessage(topic: "plumscale/counter-2/status", text: "online", qos: .atLeastOnce))
        #expect(await homeAssistant.first(within: 30) { $0.topic == "plumscale/counter-2/status" } != nil)
        try intruder.client.publish(MQTTMessage(topic: "\(base)/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        try await waitFor("mosquitto to deny counter-2's press", timeout: .seconds(30), describe: { broker.log }) {
            Self.denials(broker.log).contains { $0.contains("'\(base)/left/tare/set'") }
        }

        // Home Assistant's press goes through, and is the only one the bridge carries out.
        try homeAssistant.client.publish(
            MQTTMessage(topic: "\(base)/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        #expect(
            await homeAssistant.first(within: 30) { $0.topic == "\(base)/left/result" } != nil,
            "the bridge answers Home Assistant's press: \(bridge.stderr)")
        #expect(
            homeAssistant.messages(on: "\(base)/left/result").count == 1,
            "one answer, to Home Assistant's press; counter-2's never reached the bridge")
        #expect(Self.denials(broker.log).allSatisfy { $0.contains("'\(base)/left/tare/set'") })
        intruder.stop()
        homeAssistant.stop()
        bridge.stop()
        await BridgeProcessTests.stop(daemon)
    }

    @Test("the ACL in docs/home-assistant.md is the file the test runs, line for line")
    func documentedIsTested() throws {
        let doc = try String(contentsOfFile: repositoryRoot + "/docs/home-assistant.md", encoding: .utf8)
        let rules = { (text: String) in
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("user ") || $0.hasPrefix("topic ") || $0.hasPrefix("pattern ") }
        }
        let file = rules(try String(contentsOfFile: Self.aclFile, encoding: .utf8))
        #expect(file.count > 10, "the ACL file has its rules")
        #expect(rules(doc) == file, "docs/home-assistant.md shows docs/examples/mosquitto.acl as it is")
    }

    /// The topics `collector` has seen, each once.
    static func topics(_ collector: MessageCollector) -> [String] { Set(collector.messages.map(\.topic)).sorted() }

    /// mosquitto's "Denied PUBLISH" lines.
    static func denials(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.contains("Denied PUBLISH") }
    }
}

/// The repository's root, from this file's path (Tests/PlumMQTTTests/…).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()
