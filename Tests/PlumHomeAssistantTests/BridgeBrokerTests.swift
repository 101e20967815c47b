import Logging
import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// The bridge actor on a real mosquitto broker, with the daemon side scripted.
@Suite("bridge on a real broker", .timeLimit(.minutes(2)))
struct BridgeBrokerTests {
    struct Running {
        let link = ScriptedDaemonLink()
        let task: Task<Void, any Error>
        let settings: BridgeSettings

        init(port: Int, scaleID: String = "kitchen", delta: Double? = nil, logger: Logger = Logger(label: "test"))
            throws
        {
            let identity = try ScaleIdentity(configured: scaleID, machineID: nil)
            let settings = BridgeSettings(
                topics: BridgeTopics(identity: identity),
                policy: .init(division: DivisionRounding(grams: 0.1), delta: delta, heartbeatSeconds: 300, liveRate: 2),
                version: "0.1.0")
            self.settings = settings
            let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: port, will: settings.will))
            let bridge = Bridge(mqtt: client, link: link, settings: settings, logger: logger)
            task = Task { try await bridge.run() }
        }

        func stop() async {
            task.cancel()
            _ = try? await task.value
        }
    }

    @Test("configs, availability and states arrive retained; a stable change under delta is held back, at delta sent")
    func statesOnChangeWithDelta() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try Running(port: broker.port, delta: 1)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        #expect(
            await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" } != nil,
            "availability online once both the broker and the daemon are there")
        let device = "homeassistant/device/plumscale_kitchen/config"
        let config = await watcher.first { $0.topic == device }
        #expect(
            config.flatMap { DeviceConfigReader($0.payload, topic: device) }?.entities.count == 32,
            "one config with 32 entities (15 per pan, heaviest pan, daemon started): \(config?.text ?? "none")")

        for grams in [100.0, 100.4, 100.9, 101.0] {  // 100 published; 100.4 and 100.9 are < 1 g away; 101.0 is 1 g
            bridge.link.send(.report(.weight(weightReport("left", grams: grams, stable: true))))
        }
        bridge.link.send(.report(.weight(weightReport("left", grams: 102.5, stable: true))))
        _ = await watcher.first { $0.topic == "plumscale/kitchen/left/state" && $0.text.contains("102.5") }
        let states = watcher.messages(on: "plumscale/kitchen/left/state").compactMap {
            JSONValue.parse($0.text)?["grams"]?.number
        }
        #expect(states == [100, 101, 102.5], "states on change with delta 1 g: \(states)")

        let late = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/left/state"])
        let retained = await late.first { _ in true }
        #expect(
            retained?.retain == true && JSONValue.parse(retained?.text ?? "")?["grams"]?.number == 102.5,
            "a subscriber that comes later gets the last state, retained")
        late.stop()
        watcher.stop()
        await bridge.stop()
    }

    @Test("Home Assistant's tare and zero buttons reach the daemon for that pan; the answer is published")
    func buttonsReachTheDaemon() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/right/tare/set", text: "PRESS", qos: .atLeastOnce))
        try watcher.client.publish(
            MQTTMessage(topic: "plumscale/kitchen/left/zero/set", text: "PRESS", qos: .atLeastOnce))
        #expect(
            await eventually(within: .seconds(10)) { bridge.link.performed.count == 2 },
            "presses never reached the daemon")
        #expect(bridge.link.performed == ["tare right", "zero left"], "wrong requests: \(bridge.link.performed)")
        let result = await watcher.first { $0.topic == "plumscale/kitchen/right/result" }
        #expect(JSONValue.parse(result?.text ?? "")?["ok"]?.bool == true, "the daemon's answer is published")
        watcher.stop()
        await bridge.stop()
    }

    @Test("a pan that left the configuration: the next bridge finds it in the retained device config and removes it")
    func panThatLeftIsRemoved() async throws {
        let broker = try await MosquittoBroker.start()
        let device = "homeassistant/device/plumscale_kitchen/config"
        let first = try Running(port: broker.port)
        first.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["homeassistant/#"])
        #expect(
            await watcher.first { DeviceConfigReader($0.payload, topic: $0.topic)?.entities.count == 32 } != nil,
            "the first bridge's device config")
        await first.stop()

        let second = try Running(port: broker.port)
        second.link.send(.connected(pans: ["left"]))
        let rightKeys = Set(HomeAssistantDiscovery.PanEntity.allCases.map { "right_\($0.rawValue)" })
        #expect(
            await watcher.first { DeviceConfigReader($0.payload, topic: $0.topic)?.removed == rightKeys } != nil,
            "right's 15 entities are removed: a device config with each of their components holding p alone")

        let late = try await MessageCollector(port: broker.port, subscribe: ["homeassistant/#"])
        let retained = await late.first { $0.topic == device }
        let reader = retained.flatMap { DeviceConfigReader($0.payload, topic: device) }
        #expect(
            reader?.components.count == 17 && reader?.removed.isEmpty == true,
            "left's 15, heaviest pan, daemon started stay retained, right left out: \(retained?.text ?? "none")")
        #expect(late.messages.allSatisfy { $0.topic == device }, "no other discovery config is retained")
        late.stop()
        watcher.stop()
        await second.stop()
    }

    @Test("the daemon going away makes its own topic offline, the bridge's stays online; its return: online again")
    func daemonAvailability() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/daemon"])
        _ = await watcher.first { $0.text == "online" }
        bridge.link.send(.disconnected(reason: "connection reset"))
        #expect(await watcher.first { $0.text == "offline" } != nil, "offline when the daemon is gone")
        let status = try await MessageCollector(port: broker.port, subscribe: ["plumscale/kitchen/status"])
        let bridgeStatus = await status.first { _ in true }
        #expect(bridgeStatus?.text == "online", "the bridge itself is still there: \(String(describing: bridgeStatus))")
        bridge.link.send(.connected(pans: ["left"]))
        #expect(
            await eventually(within: .seconds(10)) { watcher.messages.map(\.text).suffix(1) == ["online"] },
            "online again")
        status.stop()
        watcher.stop()
        await bridge.stop()
    }

    @Test("the heaviest pan is published once per change; cue events go to the pan's cue topic")
    func heaviestAndCue() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/kitchen/heaviest", "plumscale/+/+/cue"])
        bridge.link.send(.report(.weight(weightReport("left", grams: 10, stable: true, heaviest: false))))
        bridge.link.send(.report(.weight(weightReport("right", grams: 90, stable: true, heaviest: true))))
        bridge.link.send(.report(.weight(weightReport("right", grams: 91, stable: true, heaviest: true))))
        bridge.link.send(.report(.weight(weightReport("left", grams: 200, stable: true, heaviest: true))))
        bridge.link.send(.report(.weight(weightReport("right", grams: 91, stable: true, heaviest: false))))
        bridge.link.send(.report(try Report.decode(#"{"class":"CUE","sensor":"left","cue":"max-force"}"#)))
        _ = await watcher.first { $0.topic == "plumscale/kitchen/left/cue" }
        #expect(
            await eventually(within: .seconds(10)) {
                watcher.messages(on: "plumscale/kitchen/heaviest").last?.text == "left"
            })
        let heaviest = watcher.messages(on: "plumscale/kitchen/heaviest").map(\.text).filter { $0 != "none" }
        #expect(heaviest.suffix(2) == ["right", "left"], "one message per change of the heaviest pan: \(heaviest)")
        let cue = watcher.messages(on: "plumscale/kitchen/left/cue").first
        #expect(
            JSONValue.parse(cue?.text ?? "")?["cue"]?.string == "max-force" && cue?.retain == false,
            "a cue is an event: published, never retained")
        watcher.stop()
        await bridge.stop()
    }

    @Test("Home Assistant announcing itself online gets the device config again")
    func homeAssistantBirth() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["homeassistant/device/+/config"])
        #expect(await eventually(within: .seconds(10)) { watcher.messages.count >= 1 }, "the first device config")
        let before = watcher.messages.count
        try watcher.client.publish(MQTTMessage(topic: "homeassistant/status", text: "online", qos: .atLeastOnce))
        #expect(
            await eventually(within: .seconds(10)) {
                watcher.messages.count > before
                    && DeviceConfigReader(watcher.messages.last!.payload, topic: watcher.messages.last!.topic)?
                        .entities.count == 17
            },
            "the device config again after Home Assistant's birth message: \(watcher.messages.count - before)")
        watcher.stop()
        await bridge.stop()
    }
}
