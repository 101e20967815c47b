import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// An alert taken out of plumscaled's configuration leaves Home Assistant: the device config
/// sends its component with the platform alone (which removes it), then leaves it out, and its
/// retained state is cleared, on a real mosquitto broker, whether the bridge sees the reload,
/// reconnects to a restarted daemon, or restarts itself.
@Suite("alerts that left the configuration on a real broker", .timeLimit(.minutes(2)))
struct AlertRemovalBrokerTests {
    static let device = "homeassistant/device/plumscale_kitchen/config"
    static let component = "alert_fruit-low"
    static let state = "plumscale/kitchen/alert/fruit-low/state"
    static let keptComponent = "alert_bowl-full"

    /// The ALERT line plumscaled sends for a rule a reload took out (protocol 1.2).
    static let removed: Report = {
        let line =
            #"{"class":"ALERT","name":"fruit-low","sensor":"bowl","active":false,"grams":null,"#
            + #""time":1795388112,"condition":"below","threshold":200,"hysteresis":50,"removed":true}"#
        guard let report = try? Report.decode(Substring(line)) else { fatalError("bad report \(line)") }
        return report
    }()

    /// The topics the broker holds a retained message for under `filter`: a fresh subscriber gets
    /// them all before the marker it then sends itself, as the broker queues them at subscription.
    static func retainedTopics(port: Int, filter: String) async throws -> Set<String> {
        let marker = "plumscale-test/marker"
        let late = try await MessageCollector(port: port, subscribe: [filter, marker])
        defer { late.stop() }
        try late.client.publish(MQTTMessage(topic: marker, text: "done", qos: .atLeastOnce))
        let done = await late.first { $0.topic == marker }
        #expect(done != nil, "the marker never came back from the broker")
        return Set(late.messages.filter { $0.topic != marker && $0.retain && !$0.payload.isEmpty }.map(\.topic))
    }

    /// Waits until fruit-low has been removed (a device config with its component holding only
    /// `p`, then one without it) and its state emptied, then asks the broker what it retains: a
    /// device config without fruit-low and with bowl-full, and no state of fruit-low.
    static func expectFruitLowGone(port: Int, watcher: MessageCollector, _ failure: String) async throws {
        @Sendable func readers() -> [DeviceConfigReader] {
            watcher.messages(on: device).compactMap { DeviceConfigReader($0.payload, topic: device) }
        }
        #expect(
            await eventually(within: .seconds(10)) {
                let configs = readers()
                guard let removing = configs.firstIndex(where: { $0.removed.contains(component) }) else { return false }
                return configs[(removing + 1)...].contains { $0.components[component] == nil }
                    && watcher.messages(on: state).last?.payload.isEmpty == true
            },
            Comment(rawValue: "\(failure): \(watcher.messages(on: device).map(\.text))"))
        let retained = try await retainedTopics(port: port, filter: "#")
        #expect(!retained.contains(state), "the broker still holds the state of the alert that left")
        let late = try await MessageCollector(port: port, subscribe: [device])
        defer { late.stop() }
        let kept = await late.first { _ in true }
        let reader = kept.flatMap { DeviceConfigReader($0.payload, topic: device) }
        #expect(reader?.components[component] == nil, "the retained device config still has the alert that left")
        #expect(
            reader?.components[keptComponent]?["unique_id"] != nil,
            "the alert still configured lost its entity: \(kept?.text ?? "none")")
    }

    /// Tells `bridge` of pan bowl with fruit-low raised and bowl-full clear.
    static func sendTwoAlerts(to bridge: BridgeBrokerTests.Running) {
        bridge.link.send(.connected(pans: ["bowl"]))
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: true, grams: 120)))
        bridge.link.send(.report(alertReport("bowl-full", sensor: "bowl", active: false, grams: nil)))
    }

    @Test("a rule the daemon reports removed after a reload: its component removed with p alone, its state emptied")
    func removedOnReload() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        Self.sendTwoAlerts(to: bridge)
        #expect(await watcher.first { $0.topic == Self.state && $0.text == "ON" } != nil, "the alert raised")
        #expect(
            await watcher.first {
                DeviceConfigReader($0.payload, topic: $0.topic)?.components[Self.keptComponent] != nil
            }
                != nil, "the other alert configured")

        bridge.link.send(.report(Self.removed))
        try await Self.expectFruitLowGone(
            port: broker.port, watcher: watcher, "the removed alert's config and state were not emptied")
        watcher.stop()
        await bridge.stop()
    }

    @Test("an alert the restarted daemon no longer reports is removed once its reports have come")
    func goneAfterDaemonRestart() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        Self.sendTwoAlerts(to: bridge)
        #expect(await watcher.first { $0.topic == Self.state && $0.text == "ON" } != nil, "the alert raised")
        #expect(
            await watcher.first { DeviceConfigReader($0.payload, topic: $0.topic)?.components[Self.component] != nil }
                != nil, "the alert configured in Home Assistant")

        // The daemon restarts with fruit-low taken out: after ?WATCH it reports bowl-full alone,
        // then readings follow.
        bridge.link.send(.disconnected(reason: "connection reset"))
        bridge.link.send(.connected(pans: ["bowl"]))
        bridge.link.send(.report(alertReport("bowl-full", sensor: "bowl", active: false, grams: nil)))
        bridge.link.send(.report(.weight(weightReport("bowl", grams: 300, stable: true))))
        try await Self.expectFruitLowGone(
            port: broker.port, watcher: watcher, "the alert the daemon no longer has was not removed")
        watcher.stop()
        await bridge.stop()
    }

    @Test("a bridge that starts after a rule left finds it in the retained device config and removes it")
    func staleAfterBridgeRestart() async throws {
        let broker = try await MosquittoBroker.start()
        let first = try BridgeBrokerTests.Running(port: broker.port)
        Self.sendTwoAlerts(to: first)
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        #expect(await watcher.first { $0.topic == Self.state && $0.text == "ON" } != nil, "the first bridge's alert")
        #expect(
            await watcher.first {
                DeviceConfigReader($0.payload, topic: $0.topic)?.components[Self.keptComponent] != nil
            }
                != nil, "the first bridge's other alert")
        await first.stop()

        let second = try BridgeBrokerTests.Running(port: broker.port)
        second.link.send(.connected(pans: ["bowl"]))
        second.link.send(.report(alertReport("bowl-full", sensor: "bowl", active: false, grams: nil)))
        second.link.send(.report(.weight(weightReport("bowl", grams: 300, stable: true))))
        try await Self.expectFruitLowGone(
            port: broker.port, watcher: watcher, "the second bridge left the first one's alert in place")
        watcher.stop()
        await second.stop()
    }
}
