import ArgumentParser
import FoundationEssentials
import PlumMQTT
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
            plumscale-mqtt from the same build folder, subscribes to the state and live topics, and \
            measures each message from the reading's time stamp (the sample's CLOCK_REALTIME) to its \
            arrival. Build with -c release for figures worth recording.
            """)

    @Option(help: "Seconds to measure.") var seconds = 30
    @Option(name: .customLong("live-rate"), help: "The bridge's live_rate (messages per second per pan).")
    var liveRate = 20.0

    struct Stamp: Decodable { var time: Double }

    func run() async throws {
        let folder = CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        var template = Array("/tmp/plumscale-mqtt-bench-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let port = 20_000 + Int(getpid() % 20_000)
        write("\(directory)/mosquitto.conf", "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        write("\(directory)/bridge.toml", "[mqtt]\nlive_rate = \(liveRate)\n")
        let broker = try BenchProcess(
            ["mosquitto", "-c", "\(directory)/mosquitto.conf"], log: "\(directory)/mosquitto.log")
        defer { broker.stop() }
        let daemon = try BenchProcess(
            [
                "\(folder)/plumscaled", "--simulate", "--socket", "\(directory)/d.sock", "--state-directory",
                "\(directory)/state"
            ],
            log: "\(directory)/plumscaled.log")
        defer { daemon.stop() }
        try await Task.sleep(for: .seconds(1))
        let bridge = try BenchProcess(
            [
                "\(folder)/plumscale-mqtt", "--config", "\(directory)/bridge.toml", "--socket", "\(directory)/d.sock",
                "--broker", "127.0.0.1:\(port)", "--scale-id", "bench"
            ],
            log: "\(directory)/bridge.log")
        defer { bridge.stop() }

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
        let cpuBefore = bridge.cpuSeconds
        try await Task.sleep(for: .seconds(seconds))
        let cpu = (bridge.cpuSeconds - cpuBefore) / Double(seconds) * 100
        let rss = bridge.memory("VmRSS")
        let peak = bridge.memory("VmHWM")
        client.stop()
        reader.cancel()

        print("plumscale-mqtt-bench: \(seconds) s, plumscaled --simulate (2 pans, 80 SPS), live_rate \(liveRate)")
        print("topic   messages   p50 ms   p99 ms   max ms   (reading time stamp → subscriber)")
        for kind in ["live", "state"] {
            let values = latencies.withLock { $0[kind] ?? [] }.sorted()
            guard !values.isEmpty else {
                print("\(kind): no messages; see \(directory)/bridge.log")
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

    private func write(_ path: String, _ text: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    private func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(String(repeating: "0", count: hundredths % 100 < 10 ? 1 : 0))\(hundredths % 100)"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
