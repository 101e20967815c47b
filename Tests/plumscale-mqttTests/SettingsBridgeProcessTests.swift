import FoundationEssentials
import PlumClient
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// Home Assistant's settings entities end to end: a real plumscaled with one pan and an
/// `[[alert]]`, the real plumscale-mqtt and mosquitto. Each number and select sends its change
/// through the daemon, and its state is the daemon's value afterwards; a refusal reaches the
/// pan's event entity.
@Suite("plumscale-mqtt's settings entities with plumscaled and mosquitto", .serialized, .timeLimit(.minutes(3)))
struct SettingsBridgeProcessTests {
    static let base = "plumscale/set"

    static func configuration(_ directory: TemporaryDirectory) -> String {
        """
        [scale]
        division_grams = 0.1
        [mqtt]
        live_rate = 1

        [[sensor]]
        name = "left"
        kind = "simulated-hx711"
        load_grams = 100

        [[alert]]
        name = "fruit-low"
        sensor = "left"
        below = 200
        hysteresis = 20
        """
    }

    /// The latest device config that `matches`, within 30 s.
    static func deviceConfig(
        _ watcher: MessageCollector, _ matches: @escaping @Sendable (DeviceConfigReader) -> Bool
    ) async -> DeviceConfigReader? {
        let topic = "homeassistant/device/plumscale_set/config"
        let message = await watcher.first(within: 30) { message in
            message.topic == topic && DeviceConfigReader(message.payload, topic: topic).map(matches) == true
        }
        return message.flatMap { DeviceConfigReader($0.payload, topic: topic) }
    }

    /// Sends what Home Assistant's entity would on `topic`, and waits for `state` to say `expected`.
    static func set(
        _ watcher: MessageCollector, _ topic: String, _ payload: String, state: String, expected: String
    ) async throws -> Bool {
        try watcher.client.publish(MQTTMessage(topic: topic, text: payload, qos: .atLeastOnce))
        return await watcher.first(within: 30) { $0.topic == state && $0.text == expected } != nil
    }

    @Test("preset tare, named tare and alert numbers: discovered with the pan's range, set through the daemon, refused")
    func settingsThroughTheDaemon() async throws {
        let directory = try TemporaryDirectory(prefix: "plumhaset")
        let broker = try await MosquittoBroker.start()
        let daemon = try await offPool {
            try DaemonFixture(configuration: Self.configuration(directory), directory: directory)
        }
        let config = try directory.write("bridge.toml", Self.configuration(directory))
        let bridge = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)", "--scale-id",
                "set"
            ])
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/set/#", "homeassistant/device/plumscale_set/config"])

        let first = await Self.deviceConfig(watcher) { $0.components["alert_fruit-low_threshold"] != nil }
        let preset = try #require(first?.components["left_preset_tare"], "no preset tare number: \(bridge.stderr)")
        #expect(preset["p"]?.string == "number" && preset["mode"]?.string == "box", "\(preset)")
        #expect(
            preset["min"]?.number == 0 && preset["max"]?.number == 385 && preset["step"]?.number == 0.1, "\(preset)")
        #expect(preset["command_topic"]?.string == "\(Self.base)/left/preset-tare/set", "\(preset)")
        #expect(preset["default_entity_id"]?.string == "number.plumscale_set_left_preset_tare", "\(preset)")
        let threshold = try #require(first?.components["alert_fruit-low_threshold"])
        #expect(threshold["min"]?.number == -385 && threshold["entity_category"]?.string == "config", "\(threshold)")
        #expect(first?.components["left_named_tare"] == nil, "no select before the library has a tare")
        #expect(
            await watcher.first(within: 30) {
                $0.topic == "\(Self.base)/alert/fruit-low/threshold" && $0.text == "200.0"
            } != nil)

        // The preset tare: set, then refused beyond the capacity with the daemon's reason.
        #expect(
            try await Self.set(
                watcher, "\(Self.base)/left/preset-tare/set", "30", state: "\(Self.base)/left/preset-tare",
                expected: "30.0"),
            "the daemon's tare comes back on the state topic: \(bridge.stderr)")
        try watcher.client.publish(
            MQTTMessage(topic: "\(Self.base)/left/preset-tare/set", text: "1000000", qos: .atLeastOnce))
        let refused = await watcher.first(within: 30) {
            $0.topic == "\(Self.base)/left/event" && $0.text.contains("refused")
        }
        let event = JSONValue.parse(refused?.text ?? "")
        #expect(
            event?["event_type"]?.string == "tare_refused" && event?["reason"]?.string == "invalidWeight",
            "\(event as Any)")
        #expect(event?["message"]?.string?.contains("capacity") == true, "\(event as Any)")

        // A named tare saved with the CLI's request: the select appears with it and applies it.
        let client = try daemon.client()
        _ = try client.tares(.save(name: "bowl", sensor: nil, grams: 12.5))
        let withSelect = await Self.deviceConfig(watcher) { $0.components["left_named_tare"] != nil }
        let select = try #require(withSelect?.components["left_named_tare"], "no select after a save: \(bridge.stderr)")
        #expect(select["options"]?.array?.compactMap(\.string) == ["(none)", "bowl"], "\(select)")
        #expect(
            try await Self.set(
                watcher, "\(Self.base)/left/named-tare/set", "bowl", state: "\(Self.base)/left/named-tare",
                expected: "bowl"))
        #expect(watcher.messages(on: "\(Self.base)/left/preset-tare").last?.text == "12.5")

        // An alert's threshold through the daemon; a negative hysteresis refused on the pan's event entity.
        #expect(
            try await Self.set(
                watcher, "\(Self.base)/alert/fruit-low/threshold/set", "150",
                state: "\(Self.base)/alert/fruit-low/threshold", expected: "150.0"))
        try watcher.client.publish(
            MQTTMessage(topic: "\(Self.base)/alert/fruit-low/hysteresis/set", text: "-5", qos: .atLeastOnce))
        let alertRefused = await watcher.first(within: 30) {
            $0.topic == "\(Self.base)/left/event" && $0.text.contains("alert_refused")
        }
        #expect(alertRefused?.text.contains("0 or more grams") == true, "\(alertRefused?.text ?? "none")")

        // A restarted bridge keeps the settings entities in every device config it sends: Home
        // Assistant removes a component a device config leaves out, and the first config of a
        // restarted bridge once left them out until the capacities and the library were read
        // again, so the numbers and selects were removed and added back at every start.
        let topic = "homeassistant/device/plumscale_set/config"
        bridge.stop()
        let before = watcher.messages(on: topic).count
        let again = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)", "--scale-id",
                "set"
            ])
        let resent = await eventually(within: .seconds(30)) { watcher.messages(on: topic).count > before }
        #expect(resent, "no device config from the restarted bridge: \(again.stderr)")
        for message in watcher.messages(on: topic).dropFirst(before) {
            let components = DeviceConfigReader(message.payload, topic: topic)?.components ?? [:]
            let missing = ["left_preset_tare", "left_named_tare", "alert_fruit-low_threshold"].filter {
                components[$0] == nil
            }
            #expect(missing.isEmpty, "a device config of the restarted bridge without \(missing): \(message.text)")
        }
        watcher.stop()
        again.stop()
        _ = try? await offPool { daemon.terminate() }
    }
}
