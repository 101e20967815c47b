import ArgumentParser
import FoundationEssentials
import PlumMQTT
import PlumTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How long a reading takes from plumscaled to a subscriber through plumscale-mqtt and a real
/// mosquitto, and what the bridge costs in CPU and memory. Prints figures; asserts nothing.
@main
struct MQTTBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale-mqtt-bench",
        abstract: "Latency from a reading in plumscaled to its MQTT message, and the bridge's CPU and memory.",
        discussion: """
            Starts mosquitto on a free loopback port, plumscaled --simulate (two pans at 80 SPS) and \
            plumscale-mqtt from the same build folder (each waited for with a deadline), subscribes to \
            the state and live topics, and measures each message from the reading's time stamp (the \
            sample's CLOCK_REALTIME) to its arrival. Build with -c release for figures worth recording.
            """)

    @Option(help: "Seconds to measure.") var seconds = 30
    @Option(name: .customLong("live-rate"), help: "The bridge's live_rate (messages per second per pan).")
    var liveRate = 20.0

    struct Stamp: Decodable { var time: Double }

    func run() async throws {
        // The tests' fixtures: a broker that is listening, a daemon that greets, before any figure.
        let broker = try await MosquittoBroker.start()
        let daemon = try await offPool { try DaemonFixture() }
        defer { _ = daemon.terminate() }
        let config = try broker.directory.write("bridge.toml", "[mqtt]\nlive_rate = \(liveRate)\n")
        let bridge = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)",
                "--scale-id", "bench"
            ])
        defer { bridge.stop() }
        let figures = ProcessFigures(pid: bridge.pid)
        let port = broker.port

        let latencies = Mutex<[String: [Double]]>([:])
        let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: port))
        let reader = Task {
            let decoder = JSONDecoder()
            for await event in client.events {
                switch event {
                case .connected:
                    _ = try? client.subscribe("plumscale/bench/+/state")
                    _ = try? client.subscribe("plumscale/bench/+/live")
                case .message(let message) where !message.retain:
                    var now = timespec()
                    clock_gettime(CLOCK_REALTIME, &now)
                    guard let stamp = try? decoder.decode(Stamp.self, from: Data(message.payload)) else { continue }
                    let kind = String(message.topic.split(separator: "/").last ?? "")
                    let milliseconds = (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - stamp.time) * 1000
                    latencies.withLock { $0[kind, default: []].append(milliseconds) }
                default: break
                }
            }
        }
        try client.start()
        try await Task.sleep(for: .seconds(3))  // let the bridge connect and settle
        latencies.withLock { $0 = [:] }
        let cpuBefore = figures.cpuSeconds
        try await Task.sleep(for: .seconds(seconds))
        let cpu = (figures.cpuSeconds - cpuBefore) / Double(seconds) * 100
        let rss = figures.memory("VmRSS")
        let peak = figures.memory("VmHWM")
        client.stop()
        reader.cancel()

        print("plumscale-mqtt-bench: \(seconds) s, plumscaled --simulate (2 pans, 80 SPS), live_rate \(liveRate)")
        print("topic   messages   p50 ms   p99 ms   max ms   (reading time stamp → subscriber)")
        for kind in ["live", "state"] {
            let values = latencies.withLock { $0[kind] ?? [] }.sorted()
            guard !values.isEmpty else {
                print("\(kind): no messages; the bridge said: \(bridge.stderr.suffix(2000))")
                continue
            }
            func quantile(_ q: Double) -> Double { values[min(values.count - 1, Int(Double(values.count - 1) * q))] }
            print(
                pad(kind, 7) + pad("\(values.count)", 11) + pad(format(quantile(0.5)), 9)
                    + pad(format(quantile(0.99)), 9)
                    + pad(format(values.last!), 9))
        }
        print("bridge: CPU \(format(cpu)) % of one core, RSS \(format(rss)) MiB (peak \(format(peak)) MiB)")
    }

    private func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(String(repeating: "0", count: hundredths % 100 < 10 ? 1 : 0))\(hundredths % 100)"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
