import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// The move from per-entity discovery (earlier releases) to one device config, on a real
/// mosquitto broker, in the order Home Assistant's documentation gives for a migration: each old
/// topic gets `{"migrate_discovery": true}`, then the device config takes the entity over under
/// the same discovery id, then the old topic is emptied.
@Suite("device-based discovery and its migration on a real broker", .timeLimit(.minutes(2)))
struct DeviceDiscoveryBrokerTests {
    static let device = "homeassistant/device/plumscale_kitchen/config"
    /// Built as ``BridgeBrokerTests/Running`` configures its bridge.
    static let discovery = HomeAssistantDiscovery(
        topics: BridgeTopics(identity: try! ScaleIdentity(configured: "kitchen", machineID: nil)),
        division: DivisionRounding(grams: 0.1), qos: 1, version: "0.1.0")

    /// What an earlier release left retained for pans left, right and gone and alerts fruit-low
    /// and old-rule, made by the per-entity code path of this release.
    struct EarlierRelease {
        /// Topic → payload of the entities still configured (left, right, the heaviest pan, fruit-low).
        var current: [String: [UInt8]] = [:]
        /// Topics of the entities that left meanwhile (pan gone, alert old-rule).
        var gone: Set<String> = []
        var all: Set<String> { gone.union(current.keys) }

        init() {
            let fruitLow = alertRule("fruit-low", sensor: "left")
            let oldRule = alertRule("old-rule", sensor: "gone")
            for (topic, payload) in discovery.configs(pans: ["left", "right"]) + [discovery.alertConfig(fruitLow)] {
                current[topic] = HomeAssistantDiscovery.encode(payload)
            }
            let everything = discovery.configs(pans: ["left", "right", "gone"]) + [discovery.alertConfig(oldRule)]
            gone = Set(everything.map { $0.topic }).subtracting(current.keys)
        }

        /// Publishes every config retained and returns once a subscriber gets them all back.
        func publish(port: Int) async throws {
            let publisher = try await MessageCollector(port: port, subscribe: ["homeassistant/#"])
            defer { publisher.stop() }
            let gonePayload = Array(#"{"name":"left the configuration","unique_id":"x"}"#.utf8)
            for topic in all.sorted() {
                let payload = current[topic] ?? gonePayload
                try publisher.client.publish(
                    MQTTMessage(topic: topic, payload: payload, qos: .atLeastOnce, retain: true))
            }
            let arrived = await eventually(within: .seconds(10)) { Set(publisher.messages.map(\.topic)) == all }
            #expect(arrived, "the earlier release's configs never reached the broker")
        }
    }

    /// The daemon as the new bridge finds it: pans left and right, alert fruit-low, readings.
    static func daemonStarts(_ bridge: BridgeBrokerTests.Running) {
        bridge.link.send(.connected(pans: ["left", "right"]))
        bridge.link.send(.report(alertReport("fruit-low", sensor: "left", active: false, grams: nil)))
        bridge.link.send(.report(.weight(weightReport("left", grams: 120, stable: true))))
    }

    /// Starts a bridge on a broker holding `earlier` and waits until it has emptied every old
    /// topic; returns the messages a subscriber saw meanwhile, those the broker sent live (not
    /// the retained ones it got at subscription), in order.
    static func migrate(_ earlier: EarlierRelease, port: Int) async throws -> [MQTTMessage] {
        let watcher = try await MessageCollector(port: port, subscribe: ["homeassistant/#"])
        defer { watcher.stop() }
        #expect(
            await eventually(within: .seconds(10)) { watcher.messages.filter(\.retain).count == earlier.all.count },
            "the retained configs of the earlier release")
        let bridge = try BridgeBrokerTests.Running(port: port)
        daemonStarts(bridge)
        let emptied = await eventually(within: .seconds(10)) {
            Set(watcher.messages.filter { !$0.retain && $0.payload.isEmpty }.map(\.topic)) == earlier.all
        }
        await bridge.stop()
        let live = watcher.messages.filter { !$0.retain }
        #expect(emptied, "not every old topic was emptied: \(live.map(\.topic))")
        return live
    }

    @Test(
        "an earlier release's install: migrate_discovery on each old topic, then the device config, then it emptied"
    )
    func migrationOrder() async throws {
        let broker = try await MosquittoBroker.start()
        let earlier = EarlierRelease()
        try await earlier.publish(port: broker.port)
        let live = try await Self.migrate(earlier, port: broker.port)

        let deviceConfigs = live.enumerated().compactMap { index, message in
            message.topic == Self.device
                ? DeviceConfigReader(message.payload, topic: message.topic).map { (index, $0) } : nil
        }
        for topic in earlier.current.keys.sorted() {
            let key = try #require(Self.discovery.legacyComponent(ofConfig: topic)?.objectID)
            let onTopic = live.enumerated().filter { $0.element.topic == topic }
            #expect(
                onTopic.map(\.element.text) == [HomeAssistantDiscovery.migrateDiscovery, ""],
                "\(topic): migrate, then empty: \(onTopic.map(\.element.text))")
            guard onTopic.count == 2 else { continue }
            let (migrated, emptied) = (onTopic[0].offset, onTopic[1].offset)
            let taking = deviceConfigs.filter { $0.1.components[key] != nil && !$0.1.removed.contains(key) }
            #expect(taking.allSatisfy { $0.0 > migrated }, "\(key) was in a device config before its migrate_discovery")
            #expect(
                taking.contains { $0.0 < emptied }, "no device config took \(key) over before its old topic was emptied"
            )
        }
        for topic in earlier.gone.sorted() {
            #expect(
                live.filter { $0.topic == topic }.map(\.text) == [""], "\(topic) that left is emptied, not migrated")
            let key = Self.discovery.legacyComponent(ofConfig: topic)?.objectID ?? "?"
            #expect(deviceConfigs.allSatisfy { $0.1.components[key] == nil }, "\(key) that left is no component")
        }

        // What the broker keeps: the device config alone, each entity as its per-entity config was.
        let retained = try await AlertRemovalBrokerTests.retainedTopics(port: broker.port, filter: "homeassistant/#")
        #expect(retained == [Self.device], "the broker still holds per-entity configs: \(retained.sorted())")
        let last = try #require(deviceConfigs.last?.1, "no device config was published")
        #expect(Set(last.entities.keys) == Set(earlier.current.keys), "every entity keeps its discovery id")
        for (topic, payload) in earlier.current {
            #expect(
                last.entities[topic] == JSONValue.parse(payload),
                "\(topic): Home Assistant sets up the same entity from the device config")
        }
    }

    @Test("a restart after the migration publishes the device config again and nothing else: no old topic, no removal")
    func restartAfterMigration() async throws {
        let broker = try await MosquittoBroker.start()
        let earlier = EarlierRelease()
        try await earlier.publish(port: broker.port)
        let first = try await Self.migrate(earlier, port: broker.port)
        let migrated = try #require(first.last { $0.topic == Self.device }, "the first run's device config")

        let watcher = try await MessageCollector(port: broker.port, subscribe: ["homeassistant/#", "plumscale/#"])
        #expect(await watcher.first { $0.topic == Self.device && $0.retain } != nil, "the retained device config")
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        Self.daemonStarts(bridge)
        let state = await watcher.first { $0.topic == "plumscale/kitchen/left/state" && !$0.retain }
        #expect(state != nil, "the restarted bridge never published left's state")
        let configured = await watcher.first {
            $0.topic == Self.device && !$0.retain && $0.payload == migrated.payload
        }
        #expect(configured != nil, "the restarted bridge's device config is not the one the migration left")
        await bridge.stop()

        let discovery = watcher.messages.filter { !$0.retain && $0.topic.hasPrefix("homeassistant/") }
        #expect(
            discovery.allSatisfy { $0.topic == Self.device },
            "the restart sent to other discovery topics: \(discovery.map(\.topic).filter { $0 != Self.device })")
        for message in discovery {
            let reader = try #require(DeviceConfigReader(message.payload, topic: message.topic), "a JSON device config")
            #expect(reader.removed.isEmpty, "the restart removed entities: \(reader.removed.sorted())")
        }
        watcher.stop()
    }

    @Test("a pan the restarted daemon no longer has: its components sent with p alone, then a config without them")
    func panLeftWhileRunning() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        let watcher = try await MessageCollector(port: broker.port, subscribe: [Self.device])
        bridge.link.send(.connected(pans: ["left", "right"]))
        #expect(
            await watcher.first { DeviceConfigReader($0.payload, topic: $0.topic)?.components["right_weight"] != nil }
                != nil, "the first device config")

        bridge.link.send(.disconnected(reason: "restarted"))
        bridge.link.send(.connected(pans: ["left"]))
        let rightKeys = Set(HomeAssistantDiscovery.PanEntity.allCases.map { "right_\($0.rawValue)" })
        let removing = await watcher.first { DeviceConfigReader($0.payload, topic: $0.topic)?.removed == rightKeys }
        #expect(removing != nil, "no device config removed right's 15 entities with p alone")
        let removingReader = removing.flatMap { DeviceConfigReader($0.payload, topic: $0.topic) }
        #expect(
            removingReader?.components["right_weight"] == .object(["p": .string("sensor")]),
            "p alone: \(removing?.text ?? "")")
        let after = await watcher.first(within: 10) { message in
            guard let reader = DeviceConfigReader(message.payload, topic: message.topic) else { return false }
            return reader.removed.isEmpty && reader.components["right_weight"] == nil
        }
        #expect(after != nil, "no device config left right out after removing it")
        #expect(
            DeviceConfigReader(after?.payload ?? [], topic: Self.device)?.entities.count == 17,
            "left's 15, the heaviest pan and the daemon's start stay")
        watcher.stop()
        await bridge.stop()
    }
}
