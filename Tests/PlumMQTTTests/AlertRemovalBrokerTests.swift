import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// An alert taken out of plumscaled's configuration leaves Home Assistant: its retained
/// discovery config is emptied and its retained state cleared, on a real mosquitto broker,
/// whether the bridge sees the reload, reconnects to a restarted daemon, or restarts itself.
@Suite("alerts that left the configuration on a real broker", .timeLimit(.minutes(2)))
struct AlertRemovalBrokerTests {
    static let config = "homeassistant/binary_sensor/plumscale_kitchen/alert_fruit-low/config"
    static let state = "plumscale/kitchen/alert/fruit-low/state"
    static let keptConfig = "homeassistant/binary_sensor/plumscale_kitchen/alert_bowl-full/config"

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

    /// Waits until fruit-low's config and state have been emptied, then asks the broker what it
    /// retains: neither of them, and still bowl-full's config.
    static func expectFruitLowGone(port: Int, watcher: MessageCollector, _ failure: String) async throws {
        #expect(
            await eventually(within: .seconds(10)) {
                watcher.messages(on: config).last?.payload.isEmpty == true
                    && watcher.messages(on: state).last?.payload.isEmpty == true
            },
            Comment(rawValue: "\(failure): \(watcher.messages(on: config).count) configs"))
        let retained = try await retainedTopics(port: port, filter: "#")
        #expect(
            !retained.contains(config) && !retained.contains(state),
            "the broker still holds the alert that left: \(retained.sorted())")
        #expect(retained.contains(keptConfig), "the alert still configured lost its entity: \(retained.sorted())")
    }

    /// Tells `bridge` of pan bowl with fruit-low raised and bowl-full clear.
    static func sendTwoAlerts(to bridge: BridgeBrokerTests.Running) {
        bridge.link.send(.connected(pans: ["bowl"]))
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: true, grams: 120)))
        bridge.link.send(.report(alertReport("bowl-full", sensor: "bowl", active: false, grams: nil)))
    }

    @Test("a rule the daemon reports removed after a reload: empty retained config and state, the others kept")
    func removedOnReload() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        Self.sendTwoAlerts(to: bridge)
        #expect(await watcher.first { $0.topic == Self.state && $0.text == "ON" } != nil, "the alert raised")
        #expect(await watcher.first { $0.topic == Self.keptConfig } != nil, "the other alert configured")

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

    @Test("a bridge that starts after a rule left finds its retained config on the broker and empties it")
    func staleAfterBridgeRestart() async throws {
        let broker = try await MosquittoBroker.start()
        let first = try BridgeBrokerTests.Running(port: broker.port)
        Self.sendTwoAlerts(to: first)
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        #expect(await watcher.first { $0.topic == Self.state && $0.text == "ON" } != nil, "the first bridge's alert")
        #expect(await watcher.first { $0.topic == Self.keptConfig } != nil, "the first bridge's other alert")
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
