import PlumMQTT
import PlumTestSupport
import Synchronization
import Testing

/// PlumMQTT against a real mosquitto broker on a loopback port.
@Suite("MQTT client on a real broker", .timeLimit(.minutes(2)))
struct MQTTClientTests {
    /// Events of one client, gathered so a test can wait for the n-th of a kind.
    final class EventLog: Sendable {
        private final class Store: Sendable { let events = Mutex<[MQTTEvent]>([]) }
        private let store = Store()
        let task: Task<Void, Never>
        init(_ client: MQTTClient) {
            let store = self.store
            task = Task { for await event in client.events { store.events.withLock { $0.append(event) } } }
        }
        var all: [MQTTEvent] { store.events.withLock { $0 } }
        func count(_ match: (MQTTEvent) -> Bool) -> Int { all.filter(match).count }
        func wait(for count: Int = 1, _ match: @escaping (MQTTEvent) -> Bool) async -> Bool {
            await eventually(within: .seconds(15)) { self.count(match) >= count }
        }
    }

    static func isConnected(_ event: MQTTEvent) -> Bool { event == .connected }

    @Test(
        "a retained QoS 1 message published by one client reaches a subscriber that comes later",
        arguments: MQTTProtocolVersion.allCases)
    func retainedRoundTrip(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try MQTTClient(
            MQTTConfiguration(host: "127.0.0.1", port: broker.port, protocolVersion: version))
        let log = EventLog(publisher)
        try publisher.start()
        #expect(await log.wait(Self.isConnected), "the publisher never connected: \(log.all)")
        let id = try publisher.publish(
            MQTTMessage(topic: "test/retained", text: "152.2", qos: .atLeastOnce, retain: true))
        #expect(await log.wait { $0 == .published(messageID: id) }, "no PUBACK for message \(id): \(log.all)")

        let collector = try await MessageCollector(port: broker.port, subscribe: ["test/#"])
        let message = await collector.first { $0.topic == "test/retained" }
        #expect(message?.text == "152.2", "the late subscriber did not get the retained payload: \(collector.messages)")
        #expect(message?.retain == true, "a message delivered from the broker's store must carry the retain flag")
        #expect(message?.qos == .atLeastOnce, "QoS 1 published and subscribed must arrive as QoS 1")
        publisher.stop()
        collector.stop()
    }

    @Test("after the broker restarts the client says disconnected once, reconnects by itself and can publish again")
    func reconnectsAfterBrokerRestart() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: broker.port, reconnectDelay: 1...2))
        let log = EventLog(client)
        try client.start()
        #expect(await log.wait(Self.isConnected), "never connected: \(log.all)")

        await broker.kill()
        #expect(
            await log.wait { if case .disconnected(let reason) = $0 { reason != nil } else { false } },
            "a broker that died must be reported as an unexpected disconnect: \(log.all)")
        #expect(throws: MQTTError.self, "publishing while the broker is away must fail with an error") {
            try client.publish(MQTTMessage(topic: "test/x", text: "lost"))
        }
        try await broker.restart()
        #expect(await log.wait(for: 2, Self.isConnected), "no reconnect after the broker came back: \(log.all)")
        #expect(
            log.count { if case .disconnected = $0 { true } else { false } } == 1,
            "one outage must produce exactly one disconnect event, not one per retry: \(log.all)")

        let collector = try await MessageCollector(port: broker.port, subscribe: ["test/#"])
        try client.publish(MQTTMessage(topic: "test/after", text: "back", qos: .atLeastOnce))
        #expect(await collector.first { $0.topic == "test/after" }?.text == "back", "publishing after reconnect failed")
        client.stop()
        collector.stop()
    }

    @Test("a broker that is down at start is reported unreachable, and the client connects once it comes up")
    func connectsWhenTheBrokerAppears() async throws {
        let broker = try await MosquittoBroker.start()
        await broker.kill()
        let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: broker.port, reconnectDelay: 1...2))
        let log = EventLog(client)
        try client.start()
        #expect(
            await log.wait {
                if case .unreachable(let reason) = $0 { reason.contains("127.0.0.1:\(broker.port)") } else { false }
            },
            "the first failure must name the broker: \(log.all)")
        try await broker.restart()
        #expect(await log.wait(Self.isConnected), "never connected after the broker started: \(log.all)")
        client.stop()
    }

    @Test("subscriptions deliver only matching topics, and a message's payload bytes arrive unchanged")
    func subscriptionFilters() async throws {
        let broker = try await MosquittoBroker.start()
        let collector = try await MessageCollector(port: broker.port, subscribe: ["scale/+/tare/set"])
        let publisher = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: broker.port, protocolVersion: .v5))
        let log = EventLog(publisher)
        try publisher.start()
        #expect(await log.wait(Self.isConnected))
        let bytes: [UInt8] = [0, 1, 0xFF, 0x80, 10]
        try publisher.publish(MQTTMessage(topic: "scale/left/zero/set", text: "PRESS", qos: .atLeastOnce))
        try publisher.publish(MQTTMessage(topic: "scale/left/tare/set", payload: bytes, qos: .atLeastOnce))
        let message = await collector.first { $0.topic == "scale/left/tare/set" }
        #expect(message?.payload == bytes, "binary payload changed on the way")
        #expect(collector.messages(on: "scale/left/zero/set").isEmpty, "a topic outside the filter was delivered")
        publisher.stop()
        collector.stop()
    }

    @Test("a CA file that does not exist is refused when the client is made, naming the file")
    func missingCAFile() throws {
        let error = #expect(throws: MQTTError.self) {
            _ = try MQTTClient(
                MQTTConfiguration(host: "127.0.0.1", port: 8883, tls: MQTTTLS(caFile: "/nonexistent/ca.pem")))
        }
        #expect(
            error?.description.contains("/nonexistent/ca.pem") == true,
            "the error must name the CA file: \(String(describing: error))")
    }
}
