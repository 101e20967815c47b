import Logging
import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// Every press gets an answer Home Assistant shows: on a real broker, with the daemon scripted.
@Suite("a press is answered on the pan's event and last action topics, on a real broker", .timeLimit(.minutes(2)))
struct PanEventBrokerTests {
    @Test("a tare refused on a moving pan fires tare_refused with the daemon's reason, said once; done fires tare_done")
    func refusedAndDone() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        let reason = "tare refused: the load is not stable; wait until the pan is still"
        bridge.link.refuse("right", message: reason)
        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/right/tare/set", text: "PRESS", qos: .atLeastOnce))

        let refused = try #require(
            await watcher.first { $0.topic == "plumscale/kitchen/right/event" }, "no event for the refused tare")
        let event = try #require(JSONValue.parse(refused.text), "the event is not JSON: \(refused.text)")
        #expect(event["event_type"]?.string == "tare_refused", "event_type: \(refused.text)")
        #expect(event["message"]?.string == reason, "the reason text, not said twice: \(refused.text)")
        #expect(event["reason"]?.string == "notStable", "the refusal code: \(refused.text)")
        #expect(refused.retain == false, "an event is not retained: a restart of Home Assistant would fire it again")
        let text = await watcher.first { $0.topic == "plumscale/kitchen/right/last-action" }
        #expect(text?.text == reason, "the last action sensor: \(String(describing: text))")

        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        let done = await watcher.first { $0.topic == "plumscale/kitchen/left/event" }
        #expect(JSONValue.parse(done?.text ?? "")?["event_type"]?.string == "tare_done", "tare_done on left")
        _ = await watcher.first { $0.topic == "plumscale/kitchen/left/last-action" }
        // A later subscriber (Home Assistant after a restart) still reads both answers: retained.
        let late = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/+/last-action"])
        #expect(
            await eventually(within: .seconds(10)) { late.messages.count == 2 }, "both last actions are retained")
        let retained = Dictionary(late.messages.map { ($0.topic, $0.text) }, uniquingKeysWith: { $1 })
        #expect(
            retained["plumscale/kitchen/left/last-action"] == "tare done: 12.5 g"
                && retained["plumscale/kitchen/right/last-action"] == reason
                && late.messages.allSatisfy(\.retain),
            "the retained last actions: \(retained)")
        late.stop()
        watcher.stop()
        await bridge.stop()
    }
}
