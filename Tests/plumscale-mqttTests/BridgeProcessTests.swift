import FoundationEssentials
import PlumMQTT
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real programs: `plumscaled --simulate` (two pans, left and right), `plumscale-mqtt`
/// talking to it through PlumClient, and a real mosquitto broker.
@Suite("plumscale-mqtt with plumscaled and mosquitto", .serialized, .timeLimit(.minutes(3)))
struct BridgeProcessTests {
    /// A simulated daemon (`plumscaled --simulate`) on its own socket in `directory`, started
    /// in a directory of its own unless one is given (a restart reuses the socket's path).
    static func daemon(in directory: TemporaryDirectory? = nil) async throws -> DaemonFixture {
        try await offPool { try DaemonFixture(directory: directory) }
    }

    /// Stops the daemon (SIGTERM) and waits for it, off the concurrency pool.
    static func stop(_ daemon: DaemonFixture) async {
        _ = try? await offPool { daemon.terminate() }
    }

    /// `plumscale-mqtt` for `daemon`, on the broker, as scale `scaleID`.
    static func bridge(_ daemon: DaemonFixture, broker: MosquittoBroker, scaleID: String) throws -> BackgroundProcess {
        let config = try daemon.directory.write(
            "\(scaleID).toml", "[scale]\ndivision_grams = 0.1\n[mqtt]\nheartbeat = 30\nlive_rate = 1\n")
        return try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)",
                "--scale-id", scaleID
            ])
    }

    @Test("kill -9 of the bridge: the broker publishes its last will, offline")
    func willAfterKill() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await Self.daemon()
        let bridge = try Self.bridge(daemon, broker: broker, scaleID: "will")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/will/status"])
        #expect(await watcher.first(within: 30) { $0.text == "online" } != nil, "never online: \(bridge.stderr)")
        let onlineCount = watcher.messages.count
        bridge.stop(SIGKILL)
        let offline = await watcher.first(within: 30) { $0.text == "offline" }
        #expect(offline != nil, "no offline after kill -9: \(watcher.messages.map(\.text))")
        #expect(watcher.messages.count == onlineCount + 1, "the will is the one message after online")
        watcher.stop()
        await Self.stop(daemon)
    }

    @Test("the diagnostics come from the real daemon's ?DEVICES: each pan's state and grade, the daemon's start")
    func diagnosticsFromTheDaemon() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await Self.daemon()
        let bridge = try Self.bridge(daemon, broker: broker, scaleID: "diag")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/diag/#"])
        let left = await watcher.first(within: 30) { $0.topic == "plumscale/diag/left/diagnostics" }
        let figures = JSONValue.parse(left?.text ?? "")
        #expect(
            ["ok", "settling", "warming-up", "starting"].contains(figures?["state"]?.string ?? ""),
            "left's state: \(left?.text ?? "none"); \(bridge.stderr)")
        // The simulated pans are weighed with their chip's exact calibration, dated "simulated chip".
        #expect(
            figures?["calibration_grade"]?.string != nil && figures?["calibration_date"] == .null,
            "a grade, and no time Home Assistant could not read: \(left?.text ?? "none")")
        let started = await watcher.first(within: 30) { $0.topic == "plumscale/diag/diagnostics" }
        let text = JSONValue.parse(started?.text ?? "")?["started"]?.string ?? ""
        let start = try Date(text, strategy: .iso8601).timeIntervalSince1970
        #expect(abs(Date().timeIntervalSince1970 - start) < 120, "the daemon started just now: \(text)")
        watcher.stop()
        bridge.stop()
        await Self.stop(daemon)
    }

    @Test("Home Assistant's tare button reaches plumscaled, whose answer comes back on the result topic")
    func tareReachesTheDaemon() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await Self.daemon()
        let bridge = try Self.bridge(daemon, broker: broker, scaleID: "tare")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/tare/#"])
        #expect(
            await watcher.first(within: 30) { $0.topic == "plumscale/tare/status" && $0.text == "online" } != nil,
            "never online: \(bridge.stderr)")
        try watcher.client.publish(MQTTMessage(topic: "plumscale/tare/left/tare/set", text: "PRESS", qos: .atLeastOnce))
        let result = try #require(
            await watcher.first(within: 30) { $0.topic == "plumscale/tare/left/result" },
            "no answer: \(bridge.stderr)")
        let answer = try #require(JSONValue.parse(result.text))
        #expect(
            answer["action"]?.string == "tare" && answer["pan"]?.string == "left",
            "the daemon's TARE reply: \(result.text)")
        #expect(
            answer["ok"]?.bool == true || answer["reason"]?.string == "notStable",
            "tared, or refused only because the simulated plums moved: \(result.text)")
        watcher.stop()
        bridge.stop()
        await Self.stop(daemon)
    }

    @Test("the bridge follows plumscaled through a restart: offline while it is gone, online and states after")
    func daemonRestart() async throws {
        let broker = try await MosquittoBroker.start()
        var daemon = try await Self.daemon()
        let bridge = try Self.bridge(daemon, broker: broker, scaleID: "restart")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/restart/#"])
        #expect(
            await watcher.first(within: 30) { $0.topic == "plumscale/restart/status" && $0.text == "online" } != nil)
        await Self.stop(daemon)
        #expect(
            await watcher.first(within: 30) { $0.topic == "plumscale/restart/daemon" && $0.text == "offline" } != nil,
            "offline while the daemon is gone: \(bridge.stderr)")
        let before = watcher.messages.count
        daemon = try await Self.daemon(in: daemon.directory)
        #expect(
            await eventually(within: .seconds(30)) {
                watcher.messages.dropFirst(before).contains {
                    $0.topic == "plumscale/restart/daemon" && $0.text == "online"
                }
                    && watcher.messages.dropFirst(before).contains { $0.topic == "plumscale/restart/left/live" }
            }, "online and live readings again after the daemon restarted: \(bridge.stderr)")
        watcher.stop()
        bridge.stop()
        await Self.stop(daemon)
    }

    @Test("the broker restarts: the bridge reconnects and publishes its configs and availability again")
    func brokerRestart() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await Self.daemon()
        let bridge = try Self.bridge(daemon, broker: broker, scaleID: "broker")
        var watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/broker/status"])
        #expect(await watcher.first(within: 30) { $0.text == "online" } != nil)
        watcher.stop()
        try await broker.restart()  // persistence off: the restarted broker has nothing retained
        watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/broker/status", "homeassistant/#"])
        #expect(
            await watcher.first(within: 60) { $0.topic == "plumscale/broker/status" && $0.text == "online" } != nil,
            "online again on the restarted broker: \(bridge.stderr)")
        #expect(
            await watcher.first(within: 30) {
                DeviceConfigReader($0.payload, topic: $0.topic)?.entities.count == 44
            } != nil,
            "the device config with its 44 entities published again (per pan a preset tare, item and session start)")
        let log = bridge.stderr
        #expect(
            log.components(separatedBy: "lost the MQTT broker").count - 1 == 1,
            "the outage is logged once, not per retry: \(log)")
        watcher.stop()
        bridge.stop()
        await Self.stop(daemon)
    }

    @Test("a fleet: three daemons and three bridges on one broker; every pan of every scale arrives, ids unique")
    func fleet() async throws {
        let broker = try await MosquittoBroker.start()
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["homeassistant/#", "plumscale/+/+/state"])
        var daemons: [DaemonFixture] = []
        var bridges: [BackgroundProcess] = []
        let scales = ["shop-1", "shop-2", "shop-3"]
        for scale in scales {
            let daemon = try await Self.daemon()
            daemons.append(daemon)
            bridges.append(try Self.bridge(daemon, broker: broker, scaleID: scale))
        }
        // The entities of each scale's latest device config, as Home Assistant sets them up.
        @Sendable func configs() -> [String: JSONValue] {
            var latest: [String: DeviceConfigReader] = [:]
            for message in watcher.messages {
                if let reader = DeviceConfigReader(message.payload, topic: message.topic) {
                    latest[message.topic] = reader
                }
            }
            return latest.values.reduce(into: [:]) { all, reader in all.merge(reader.entities) { first, _ in first } }
        }
        #expect(
            await eventually(within: .seconds(60)) { configs().count >= 132 },
            "3 scales × (2 pans × 18 (15, preset tare, item, session start) + heaviest, daemon started, 6 sessions)")
        let entities = configs()
        let uniqueIDs = entities.values.compactMap { $0["unique_id"]?.string }
        #expect(
            uniqueIDs.count == 132 && Set(uniqueIDs).count == 132,
            "132 entities with 132 distinct unique_ids: \(uniqueIDs)"
        )
        for scale in scales {
            for pan in ["left", "right"] {
                let kinds = [
                    "weight", "force", "flow", "stable", "overload", "tare", "zero", "action", "last_action",
                    "sensor_state", "last_fault", "calibration_date", "calibration_grade", "late_readouts", "discards",
                    "preset_tare", "item", "session_start"
                ]
                for kind in kinds {
                    #expect(
                        entities.keys.contains { $0.hasSuffix("/plumscale_\(scale)/\(pan)_\(kind)/config") },
                        "\(scale) \(pan) \(kind) entity missing")
                }
            }
        }
        #expect(
            await eventually(within: .seconds(60)) {
                let states = Set(watcher.messages.map(\.topic).filter { $0.hasSuffix("/state") })
                return states
                    == Set(scales.flatMap { scale in ["left", "right"].map { "plumscale/\(scale)/\($0)/state" } })
            },
            "a state from each of the 6 pans: \(Set(watcher.messages.map(\.topic).filter { $0.hasSuffix("/state") }))")
        watcher.stop()
        for bridge in bridges { bridge.stop() }
        for daemon in daemons { await Self.stop(daemon) }
    }
}
