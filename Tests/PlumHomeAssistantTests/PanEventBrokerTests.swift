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
        let log = LogLines()
        let bridge = try BridgeBrokerTests.Running(port: broker.port, logger: log.logger(label: "plumscale-mqtt.test"))
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
        // The journal says it once too (it said "tare right refused: tare refused: …").
        let logged = log.all.filter { $0.contains("refused") }
        #expect(logged == ["warning: right: " + reason], "the bridge's log: \(log.all)")

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

    @Test("the scale's push button fires button_short and button_long with the daemon's outcome, said once")
    func physicalButton() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        let refusal = "zero refused: load is 103.0 g, outside the ±7.7 g zero range — use tare, or empty the pan"
        let lines = [
            #"{"class":"BUTTON","sensor":"right","gesture":"long","action":"zero","ok":false,"#
                + #""reason":"outsideZeroRange","message":"\#(refusal)","time":1795388111.5}"#,
            #"{"class":"BUTTON","sensor":"left","gesture":"short","action":"tare","ok":true,"tare":100,"#
                + #""message":"tare done: 100 g","time":1795388112.5}"#
        ]
        for line in lines { bridge.link.send(.report(try Report.decode(Substring(line)))) }

        let long = try #require(
            await watcher.first { $0.topic == "plumscale/kitchen/right/event" }, "no event for the long press")
        let event = try #require(JSONValue.parse(long.text), "the event is not JSON: \(long.text)")
        #expect(event["event_type"]?.string == "button_long", "event_type: \(long.text)")
        #expect(event["message"]?.string == "button: " + refusal, "the daemon's words, said once: \(long.text)")
        #expect(event["reason"]?.string == "outsideZeroRange", "the refusal code: \(long.text)")
        #expect(long.retain == false, "an event is not retained")
        let lastAction = await watcher.first { $0.topic == "plumscale/kitchen/right/last-action" }
        #expect(lastAction?.text == "button: " + refusal, "the last action sensor: \(String(describing: lastAction))")

        let short = await watcher.first { $0.topic == "plumscale/kitchen/left/event" }
        let done = JSONValue.parse(short?.text ?? "")
        #expect(
            done?["event_type"]?.string == "button_short" && done?["message"]?.string == "button: tare done: 100 g",
            "the short press on left: \(String(describing: short))")
        #expect(done?["reason"]?.string == nil, "a press that did its tare has no reason: \(String(describing: short))")
        watcher.stop()
        await bridge.stop()
    }
}
