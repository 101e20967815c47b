import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// Items and sessions through the bridge actor on a real mosquitto broker, the daemon scripted:
/// what reaches Home Assistant's topics, and what its session buttons ask the daemon.
@Suite("items and sessions on a real broker, the daemon scripted", .timeLimit(.minutes(2)))
struct ItemSessionBrokerTests {
    static func summary(_ name: String, sensor: String = "left", count: Int, total: Double) -> SessionSummary {
        SessionSummary(
            name: name, sensor: sensor, started: "2026-11-27T06:00:00Z", division: 0.1, count: count, total: total,
            mean: count == 0 ? nil : total / Double(count))
    }

    /// A daemon of protocol 1.5 with no session yet: start starts one on `left`; stop has none to stop.
    static func daemon(_ request: Request) -> Report {
        guard case .session(let session) = request else { return .error(message: "not scripted: \(request.name)") }
        switch session.action {
        case .start:
            let name = session.name ?? "?"
            return .session(
                SessionReport(
                    action: "start", ok: true, message: "session \(name) started on \(session.sensor ?? "?")",
                    sessions: [summary(name, sensor: session.sensor ?? "left", count: 0, total: 0)]))
        case .stop:
            return .session(
                SessionReport(action: "stop", ok: false, message: "no session runs; start one with session start"))
        case .show, .list:
            return .session(SessionReport(action: session.action.rawValue, ok: false, message: "no session yet"))
        }
    }

    static func itemLine(_ seq: Int, _ event: String, divisions: Int, gross: Int) -> String {
        let item = event == "placed" ? "\(seq)" : "\(seq - 1)"
        let grams = Double(divisions) / 10
        return #"{"class":"ITEM","sensor":"left","seq":\#(seq),"item":\#(item),"event":"\#(event)","#
            + #""grams":\#(grams),"divisions":\#(divisions),"gross_after":\#(Double(gross) / 10),"division":0.1,"#
            + #""time":1795388111,"flags":[],"weight_class":"medium"}"#
    }

    @Test("each ITEM is one event on its pan's item topic, in order and never retained; SESSION news the state")
    func itemsAndNews() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.answerSettings { Self.daemon($0) }
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/#", "homeassistant/device/plumscale_kitchen/config"])
        let device = "homeassistant/device/plumscale_kitchen/config"
        let config = await watcher.first { $0.topic == device }
        let reader = config.flatMap { DeviceConfigReader($0.payload, topic: device) }
        // The 32 of a daemon without sessions, per pan an item event and a session start, and the session's 6.
        let expected = 42
        #expect(reader?.entities.count == expected, "\(config?.text ?? "no device config")")
        let none = await watcher.first { $0.topic == "plumscale/kitchen/session" }
        #expect(JSONValue.parse(none?.text ?? "")?["name"]?.string == "none", "before any session: \(none as Any)")

        // Placed and removed one after another, as one at a time gives them, 10 of each.
        var lines: [String] = []
        for index in 0..<10 {
            let divisions = 400 + 37 * index
            lines.append(Self.itemLine(2 * index + 1, "placed", divisions: divisions, gross: divisions))
            lines.append(Self.itemLine(2 * index + 2, "removed", divisions: divisions, gross: 0))
        }
        for line in lines { bridge.link.send(.report(try Report.decode(Substring(line)))) }
        let topic = "plumscale/kitchen/left/item"
        #expect(await eventually(within: .seconds(10)) { watcher.messages(on: topic).count == 20 })
        let events = watcher.messages(on: topic).compactMap { JSONValue.parse($0.text) }
        #expect(events.compactMap { $0["seq"]?.number } == (1...20).map(Double.init), "in the daemon's order")
        let alternating = (0..<20).map { $0 % 2 == 0 ? "placed" : "removed" }
        #expect(events.compactMap { $0["event_type"]?.string } == alternating, "placed and removed in turn")
        #expect(events.first?["grams"]?.number == 40 && events.last?["grams"]?.number == 73.3, "\(events)")
        #expect(watcher.messages(on: topic).allSatisfy { !$0.retain }, "an event is never retained")
        #expect(watcher.messages(on: "plumscale/kitchen/right/item").isEmpty, "only the pan of the item")

        let figures = Self.summary("crate", count: 2, total: 81.7)
        let news = SessionReport(action: "item", ok: true, message: "item 3 recorded", sessions: [figures])
        bridge.link.send(.report(.session(news)))
        let state = await watcher.first { $0.topic == "plumscale/kitchen/session" && $0.text.contains("crate") }
        let json = JSONValue.parse(state?.text ?? "")
        #expect(
            json?["count"]?.number == 2 && json?["total"]?.number == 81.7 && json?["mean"]?.number == 40.85
                && json?["running"]?.bool == true,
            "the session's figures: \(state?.text ?? "none")")
        // Home Assistant after a restart reads the state it missed: retained.
        let late = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/session"])
        let retained = await late.first { $0.topic == "plumscale/kitchen/session" }
        #expect(retained?.retain == true && retained?.text == state?.text, "\(retained as Any)")
        late.stop()
        watcher.stop()
        await bridge.stop()
    }

    @Test("a pan's session start asks for a session on it named after the time; a refused stop fires session_refused")
    func buttons() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.answerSettings { Self.daemon($0) }
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }

        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/right/session-start/set", text: "PRESS", qos: .atLeastOnce))
        let started = await watcher.first { $0.topic == "plumscale/kitchen/right/event" }
        let event = JSONValue.parse(started?.text ?? "")
        #expect(event?["event_type"]?.string == "session_started", "\(started?.text ?? "no event")")
        let starts = bridge.link.settingsAsked.compactMap { request -> SessionRequest? in
            if case .session(let session) = request, session.action == .start { session } else { nil }
        }
        #expect(starts.count == 1 && starts.first?.sensor == "right", "one start, on the pan pressed: \(starts)")
        let names = starts.compactMap(\.name)
        let name = names.first ?? ""
        #expect(
            name.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "named after the time, UTC: \(name)")
        #expect(event?["message"]?.string == "session \(name) started on right", "the daemon's words")

        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/session/stop/set", text: "PRESS", qos: .atLeastOnce))
        let refused = await watcher.first { $0.topic == "plumscale/kitchen/left/event" && $0.text.contains("refused") }
        let refusal = JSONValue.parse(refused?.text ?? "")
        let message = "session stop refused: no session runs; start one with session start"
        #expect(refusal?["event_type"]?.string == "session_refused" && refusal?["message"]?.string == message)
        #expect(refusal?["reason"]?.string == "refused", "\(refused?.text ?? "none")")
        let last = await watcher.first { $0.topic == "plumscale/kitchen/left/last-action" && $0.text == message }
        #expect(last != nil, "the last action sensor says it")
        watcher.stop()
        await bridge.stop()
    }
}
