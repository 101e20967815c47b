import FoundationEssentials
import PlumClient
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// Items and sessions in Home Assistant end to end, as at a packing table: a real plumscaled with
/// a simulated pan whose load is a file the test writes (the truth), weight classes, the real
/// plumscale-mqtt and mosquitto, and a subscriber in Home Assistant's place. A session started
/// and stopped with the buttons' topics; 30 seeded plums placed and taken off one after another.
@Suite("plumscale-mqtt's items and sessions with plumscaled and mosquitto", .serialized, .timeLimit(.minutes(10)))
struct SessionBridgeProcessTests {
    static let base = "plumscale/crate"

    static func configuration(_ directory: TemporaryDirectory) -> String {
        "[mqtt]\nlive_rate = 1\n\n" + SeededPlums.classes + SeededPlums.pan(loadFile: directory.file("pan.grams"))
    }

    /// The crate of plumscaledTests' SessionProcessTests: the same truth through the bridge.
    static let plums = SeededPlums.weights

    static func className(_ grams: Double) -> String { SeededPlums.className(grams) }

    /// The events of one kind on the pan's item topic so far, parsed.
    static func events(_ watcher: MessageCollector, _ kind: String) -> [JSONValue] {
        watcher.messages(on: "\(base)/pan/item").compactMap { JSONValue.parse($0.text) }.filter {
            $0["event_type"]?.string == kind
        }
    }

    /// The latest session state that `matches`, within 30 s.
    static func session(_ watcher: MessageCollector, _ matches: @escaping @Sendable (JSONValue) -> Bool) async
        -> JSONValue?
    {
        let message = await watcher.first(within: 30) {
            $0.topic == "\(base)/session" && JSONValue.parse($0.text).map(matches) == true
        }
        return message.flatMap { JSONValue.parse($0.text) }
    }

    /// Presses a button as Home Assistant does and returns the pan's next event of `type`.
    static func press(_ watcher: MessageCollector, _ topic: String, expecting type: String) async throws -> JSONValue? {
        let before = watcher.messages(on: "\(base)/pan/event").count
        try watcher.client.publish(MQTTMessage(topic: topic, text: "PRESS", qos: .atLeastOnce))
        let fired = await eventually(within: .seconds(30)) {
            watcher.messages(on: "\(base)/pan/event").dropFirst(before).contains { $0.text.contains(type) }
        }
        guard fired else { return nil }
        let message = watcher.messages(on: "\(base)/pan/event").dropFirst(before).first { $0.text.contains(type) }
        return message.flatMap { JSONValue.parse($0.text) }
    }

    @Test("a session from the buttons: 30 plums are 30 placed events within 1 d, right classes; count, total, mean")
    func thirtyPlums() async throws {
        let directory = try TemporaryDirectory(prefix: "plumhaitems")
        try directory.write("pan.grams", "0\n")
        let broker = try await MosquittoBroker.start()
        let daemon = try await offPool { () throws -> DaemonFixture in
            let daemon = try DaemonFixture(configuration: Self.configuration(directory), directory: directory)
            // The empty pan stable at ~0 g for a second of its readings' time: the item
            // detector's first level is confirmed before the first plum.
            let client = try daemon.client()
            try client.watch()
            let empty = { (report: WeightReport) in report.stable && abs(report.grams ?? .nan) < 0.5 }
            let first = try client.nextWeight(within: .seconds(30), where: empty)
            _ = try client.nextWeight(within: .seconds(30)) { empty($0) && $0.time >= first.time + 1 }
            return daemon
        }
        let config = try directory.write("bridge.toml", Self.configuration(directory))
        let bridge = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)",
                "--scale-id", "crate"
            ])
        let topic = "homeassistant/device/plumscale_crate/config"
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["\(Self.base)/#", topic])

        // The daemon has sessions (protocol 1.5): the device config has their entities.
        let found = await watcher.first(within: 30) {
            $0.topic == topic && DeviceConfigReader($0.payload, topic: topic)?.components["session_count"] != nil
        }
        let components = found.flatMap { DeviceConfigReader($0.payload, topic: topic) }?.components ?? [:]
        for key in ["pan_item", "pan_session_start", "session", "session_total", "session_mean", "session_stop"] {
            #expect(components[key] != nil, "no \(key) in the device config: \(bridge.stderr)")
        }
        #expect(await Self.session(watcher) { $0["name"]?.string == "none" } != nil, "no session yet")

        let started = try await Self.press(watcher, "\(Self.base)/pan/session-start/set", expecting: "session_started")
        #expect(started != nil, "no session_started: \(bridge.stderr)")
        let running = await Self.session(watcher) { $0["running"]?.bool == true }
        let name = try #require(running?["name"]?.string, "no running session on \(Self.base)/session")
        #expect(running?["sensor"]?.string == "pan" && running?["count"]?.number == 0, "\(running as Any)")

        for (index, truth) in Self.plums.enumerated() {
            try directory.write("pan.grams", "\(truth)\n")
            let placed = await eventually(within: .seconds(30)) { Self.events(watcher, "placed").count == index + 1 }
            try #require(placed, "no placed event for plum \(index + 1) (\(truth) g): \(bridge.stderr)")
            try directory.write("pan.grams", "0\n")
            let removed = await eventually(within: .seconds(30)) { Self.events(watcher, "removed").count == index + 1 }
            try #require(removed, "no removed event for plum \(index + 1)")
        }

        let placed = Self.events(watcher, "placed")
        #expect(placed.count == 30, "one placed event per plum, none twice: \(placed.count)")
        for (event, truth) in zip(placed, Self.plums) {
            let grams = event["grams"]?.number ?? .nan
            #expect(abs(grams - truth) <= 0.1 + 1e-9, "\(grams) g for a \(truth) g plum: \(event)")
            #expect(event["weight_class"]?.string == Self.className(truth), "the class of \(truth) g: \(event)")
        }
        let sequence = watcher.messages(on: "\(Self.base)/pan/item").compactMap { JSONValue.parse($0.text)?["seq"] }
        #expect(sequence.compactMap(\.number) == (1...60).map(Double.init), "60 events in order, no gap")
        #expect(watcher.messages(on: "\(Self.base)/pan/item").allSatisfy { !$0.retain }, "events are never retained")

        // The sensors' states: the session's figures agree with the events Home Assistant got.
        let total = placed.compactMap { $0["grams"]?.number }.reduce(0, +)
        let figures = await Self.session(watcher) { $0["count"]?.number == 30 }
        #expect(figures?["name"]?.string == name, "\(figures as Any)")
        #expect(abs((figures?["total"]?.number ?? .nan) - total) < 1e-6, "total \(figures as Any) for \(total) g")
        let mean = figures?["mean"]?.number ?? .nan
        #expect(abs(mean - total / 30) <= 0.005 + 1e-9, "mean \(mean) for \(total / 30) g (to 0.01 g)")
        for band in SeededPlums.classNames {
            let truths = Self.plums.filter { Self.className($0) == band }.count
            #expect(figures?["classes"]?[band]?.number == Double(truths), "\(band): \(figures as Any)")
        }

        let stopped = try await Self.press(watcher, "\(Self.base)/session/stop/set", expecting: "session_stopped")
        #expect(stopped != nil, "no session_stopped: \(bridge.stderr)")
        let after = await Self.session(watcher) { $0["running"]?.bool == false && $0["count"]?.number == 30 }
        #expect(after?["name"]?.string == name && after?["stopped"]?.string != nil, "\(after as Any)")
        let refused = try await Self.press(watcher, "\(Self.base)/session/stop/set", expecting: "session_refused")
        #expect(refused?["message"]?.string?.hasPrefix("session stop refused: ") == true, "\(refused as Any)")
        let lastAction = await watcher.first(within: 30) {
            $0.topic == "\(Self.base)/pan/last-action" && $0.text.hasPrefix("session stop refused")
        }
        #expect(lastAction != nil, "the refusal on the last action sensor")
        watcher.stop()
        _ = bridge.stop()
        _ = try? await offPool { daemon.terminate() }
        withExtendedLifetime(broker) {}
    }
}
