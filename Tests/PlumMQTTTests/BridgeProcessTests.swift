import PlumMQTT
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real programs: `plumscaled --simulate` (two pans, left and right), `plumscale-mqtt`
/// talking to it through PlumClient, and a real mosquitto broker.
@Suite("plumscale-mqtt with plumscaled and mosquitto", .serialized, .timeLimit(.minutes(3)))
struct BridgeProcessTests {
    /// A simulated daemon on its own socket.
    static func daemon(_ directory: String, name: String) async throws -> (ChildProcess, String) {
        let socket = "\(directory)/\(name).sock"
        let process = try ChildProcess(
            [
                "\(productsFolder)/plumscaled", "--simulate", "--socket", socket, "--state-directory",
                "\(directory)/\(name)-state"
            ],
            directory: directory, name: name)
        guard await waitFor(seconds: 30, { access(socket, F_OK) == 0 || !process.isRunning }), process.isRunning else {
            throw SpawnError(message: "plumscaled \(name) never made \(socket): \(process.stderr)")
        }
        return (process, socket)
    }

    static func bridge(_ directory: String, socket: String, port: Int, scaleID: String) throws -> ChildProcess {
        let config = "\(directory)/\(scaleID).toml"
        writeFile(config, "[scale]\ndivision_grams = 0.1\n[mqtt]\nheartbeat = 30\nlive_rate = 1\n")
        return try ChildProcess(
            [
                "\(productsFolder)/plumscale-mqtt", "--config", config, "--socket", socket,
                "--broker", "127.0.0.1:\(port)", "--scale-id", scaleID
            ],
            directory: directory, name: "bridge-\(scaleID)")
    }

    @Test("kill -9 of the bridge: the broker publishes its last will, offline")
    func willAfterKill() async throws {
        let directory = temporaryDirectory()
        let broker = try MosquittoBroker()
        let (daemon, socket) = try await Self.daemon(directory, name: "d")
        let bridge = try Self.bridge(directory, socket: socket, port: broker.port, scaleID: "will")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/will/status"])
        #expect(await watcher.first(within: 30) { $0.text == "online" } != nil, "never online: \(bridge.stderr)")
        let onlineCount = watcher.messages.count
        bridge.stop(SIGKILL)
        let offline = await watcher.first(within: 30) { $0.text == "offline" }
        #expect(offline != nil, "no offline after kill -9: \(watcher.messages.map(\.text))")
        #expect(watcher.messages.count == onlineCount + 1, "the will is the one message after online")
        watcher.stop()
        daemon.stop()
    }

    @Test("Home Assistant's tare button reaches plumscaled, whose answer comes back on the result topic")
    func tareReachesTheDaemon() async throws {
        let directory = temporaryDirectory()
        let broker = try MosquittoBroker()
        let (daemon, socket) = try await Self.daemon(directory, name: "d")
        let bridge = try Self.bridge(directory, socket: socket, port: broker.port, scaleID: "tare")
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
        daemon.stop()
    }

    @Test("the bridge follows plumscaled through a restart: offline while it is gone, online and states after")
    func daemonRestart() async throws {
        let directory = temporaryDirectory()
        let broker = try MosquittoBroker()
        var (daemon, socket) = try await Self.daemon(directory, name: "d")
        let bridge = try Self.bridge(directory, socket: socket, port: broker.port, scaleID: "restart")
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/restart/#"])
        #expect(
            await watcher.first(within: 30) { $0.topic == "plumscale/restart/status" && $0.text == "online" } != nil)
        daemon.stop()
        #expect(
            await watcher.first(within: 30) { $0.topic == "plumscale/restart/status" && $0.text == "offline" } != nil,
            "offline while the daemon is gone: \(bridge.stderr)")
        let before = watcher.messages.count
        (daemon, socket) = try await Self.daemon(directory, name: "d")
        #expect(
            await waitFor(seconds: 30) {
                watcher.messages.dropFirst(before).contains {
                    $0.topic == "plumscale/restart/status" && $0.text == "online"
                }
                    && watcher.messages.dropFirst(before).contains { $0.topic == "plumscale/restart/left/live" }
            }, "online and live readings again after the daemon restarted: \(bridge.stderr)")
        watcher.stop()
        bridge.stop()
        daemon.stop()
    }

    @Test("the broker restarts: the bridge reconnects and publishes its configs and availability again")
    func brokerRestart() async throws {
        let directory = temporaryDirectory()
        let broker = try MosquittoBroker()
        let (daemon, socket) = try await Self.daemon(directory, name: "d")
        let bridge = try Self.bridge(directory, socket: socket, port: broker.port, scaleID: "broker")
        var watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/broker/status"])
        #expect(await watcher.first(within: 30) { $0.text == "online" } != nil)
        watcher.stop()
        try broker.restart()  // persistence off: the restarted broker has nothing retained
        watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/broker/status", "homeassistant/#"])
        #expect(
            await watcher.first(within: 60) { $0.topic == "plumscale/broker/status" && $0.text == "online" } != nil,
            "online again on the restarted broker: \(bridge.stderr)")
        #expect(
            await waitFor(seconds: 30) { watcher.messages.filter { $0.topic.hasSuffix("/config") }.count >= 13 },
            "the 13 discovery configs published again")
        let log = bridge.stderr
        #expect(
            log.components(separatedBy: "lost the MQTT broker").count - 1 == 1,
            "the outage is logged once, not per retry: \(log)")
        watcher.stop()
        bridge.stop()
        daemon.stop()
    }

    @Test("a fleet: three daemons and three bridges on one broker; every pan of every scale arrives, ids unique")
    func fleet() async throws {
        let directory = temporaryDirectory()
        let broker = try MosquittoBroker()
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["homeassistant/#", "plumscale/+/+/state"])
        var processes: [ChildProcess] = []
        let scales = ["shop-1", "shop-2", "shop-3"]
        for scale in scales {
            let (daemon, socket) = try await Self.daemon(directory, name: scale)
            processes.append(daemon)
            processes.append(try Self.bridge(directory, socket: socket, port: broker.port, scaleID: scale))
        }
        #expect(
            await waitFor(seconds: 60) { watcher.messages.filter { $0.topic.hasSuffix("/config") }.count >= 39 },
            "3 scales × (2 pans × 6 entities + heaviest) configs")
        let configs = watcher.messages.filter { $0.topic.hasSuffix("/config") }
        let uniqueIDs = configs.compactMap { JSONValue.parse($0.payload)?["unique_id"]?.string }
        #expect(
            uniqueIDs.count == 39 && Set(uniqueIDs).count == 39, "39 configs with 39 distinct unique_ids: \(uniqueIDs)")
        for scale in scales {
            for pan in ["left", "right"] {
                for entity in ["weight", "force", "stable", "overload", "tare", "zero"] {
                    #expect(
                        configs.contains { $0.topic.hasSuffix("/plumscale_\(scale)/\(pan)_\(entity)/config") },
                        "\(scale) \(pan) \(entity) config missing")
                }
            }
        }
        #expect(
            await waitFor(seconds: 60) {
                let states = Set(watcher.messages.map(\.topic).filter { $0.hasSuffix("/state") })
                return states
                    == Set(scales.flatMap { scale in ["left", "right"].map { "plumscale/\(scale)/\($0)/state" } })
            },
            "a state from each of the 6 pans: \(Set(watcher.messages.map(\.topic).filter { $0.hasSuffix("/state") }))")
        watcher.stop()
        for process in processes.reversed() { process.stop() }
    }
}
