import PlumHomeAssistant
import PlumMQTT
import PlumTestSupport
import Testing

/// Home Assistant's buttons as events: a retained or malformed `…/set` does nothing, and a flood
/// of presses costs one daemon request per pan at a time.
@Suite("bridge commands on a real broker", .timeLimit(.minutes(2)))
struct CommandHandlingTests {
    @Test("a retained PRESS, the empty message that clears it and any payload but PRESS are not carried out")
    func retainedAndMalformed() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/left/zero/set"])
        try publisher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/left/zero/set", text: "PRESS", qos: .atLeastOnce, retain: true))
        #expect(await publisher.first { $0.text == "PRESS" } != nil, "the broker holds the retained press")

        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/status"])
        _ = await watcher.first { $0.text == "online" }
        for (payload, retain) in [("", true), ("", false), ("press", false), ("PRESS ", false), ("1", false)] {
            try publisher.client.publish(
                MQTTMessage(topic: "plumscale/kitchen/left/zero/set", text: payload, qos: .atLeastOnce, retain: retain))
        }
        // The marker: a live press, after all the others on the same connection, so in order.
        try publisher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        #expect(
            await eventually(within: .seconds(10)) { bridge.link.performed.contains("tare left") },
            "the live press reaches the daemon")
        #expect(bridge.link.performed == ["tare left"], "only the live PRESS was carried out: \(bridge.link.performed)")
        publisher.stop()
        watcher.stop()
        await bridge.stop()
    }

    @Test("a flood of presses: one request per pan at a time, the presses meanwhile coalesced to one of each")
    func floodIsCoalesced() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        bridge.link.hold()
        for _ in 0..<40 {
            try watcher.client.publish(
                MQTTMessage(topic: "plumscale/kitchen/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        }
        for _ in 0..<10 {
            try watcher.client.publish(
                MQTTMessage(topic: "plumscale/kitchen/left/zero/set", text: "PRESS", qos: .atLeastOnce))
        }
        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/right/tare/set", text: "PRESS", qos: .atLeastOnce))
        #expect(
            await eventually(within: .seconds(10)) { bridge.link.performed.contains("tare right") },
            "every press has reached the bridge once the last one reached the daemon")
        #expect(bridge.link.performed.sorted() == ["tare left", "tare right"], "one request per pan while held")
        bridge.link.release()
        #expect(
            await eventually(within: .seconds(10)) {
                watcher.messages.filter { $0.topic.hasSuffix("/result") }.count == 4
            },
            "four answers: \(bridge.link.performed)")
        #expect(
            bridge.link.performed.filter { $0.hasSuffix("left") } == ["tare left", "tare left", "zero left"],
            "left: the press in flight, then one tare and one zero for the fifty that came meanwhile")
        #expect(bridge.link.mostAtOnce == 1, "never two requests for a pan at once")
        watcher.stop()
        await bridge.stop()
    }
}
