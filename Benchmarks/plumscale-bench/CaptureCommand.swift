import ArgumentParser
import PlumBench
import PlumClient
import PlumDrivers
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// 2. Capture without loss: simulated HX711s in real time through the real daemon, with every
/// raw sample streamed to many clients.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Run simulated HX711s at 80 SPS through plumscaled to many raw watchers; count what is lost.")

    @Option(help: "How long to measure, in seconds.")
    var seconds: Double = 60
    @Option(help: "Watching clients, each with raw samples on.")
    var clients: Int = 64
    @Option(help: "Simulated HX711 sensors at 80 SPS.")
    var sensors: Int = 4
    @Option(
        name: .customLong("realtime-priority"),
        help: ArgumentHelp(
            "SCHED_FIFO priority for the sampler threads, as realtime_priority in plumscale.toml (root, or "
                + "LimitRTPRIO=).",
            valueName: "1-99"))
    var realtimePriority: Int?

    func run() throws {
        ClientSwarm.raiseDescriptorLimit()
        let names = (1...sensors).map { "pan\($0)" }
        var toml = "[daemon]\nmax_clients = \(clients + 16)\n\n"
        for (index, name) in names.enumerated() {
            toml +=
                "[[sensor]]\nname = \"\(name)\"\nkind = \"simulated-hx711\"\nrate = 80\nseed = "
                + "\(index + 1)\nload_grams = \(60 + 40 * index)\n"
            if let realtimePriority { toml += "realtime_priority = \(realtimePriority)\nlock_memory = true\n" }
            toml += "\n"
        }
        let daemon = try DaemonUnderTest(configuration: toml)
        usleep(3_000_000)  // sensors open and settle
        let idle = daemon.memory("VmRSS")

        let swarm = ClientSwarm()
        try swarm.connect(clients, to: daemon.socket)
        swarm.sendAll(.watch(WatchOptions(raw: true)))
        swarm.read(until: Clock.now() + 1) { _, _, _ in }  // the WATCH replies and a first batch

        let before = try Self.published(daemon.socket)
        let cpuBefore = daemon.cpuSeconds
        let start = Clock.now()
        let period = 1 / 80.0
        // Every raw sample time each client receives, per sensor: 64 × 4 × 4800 doubles at most.
        var times = [[[Double]]](repeating: [[Double]](repeating: [], count: names.count), count: clients)
        var overflows = 0
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        swarm.read(until: start + seconds) { client, line, _ in
            if LineFields.isClass(line, "OVERFLOW") {
                overflows += 1
                return
            }
            guard LineFields.isClass(line, "RAW"), let name = LineFields.string(line, "sensor"),
                let sensor = index[String(name)]
            else { return }
            times[client][sensor] += LineFields.numbers(line, "times")
        }
        let elapsed = Clock.now() - start
        let cpu = (daemon.cpuSeconds - cpuBefore) / elapsed
        let after = try Self.published(daemon.socket)
        let peak = daemon.memory("VmHWM")
        let operations = try GPIOOperationCount.measure(samples: 2000)
        daemon.stop()

        let scheduling =
            realtimePriority.map { "sampler threads at SCHED_FIFO \($0) with memory locked" }
            ?? "sampler threads at normal priority"
        print(
            "Capture without loss: \(sensors) simulated HX711 at 80 SPS in real time through plumscaled "
                + "(\(scheduling)), \(clients) clients watching with raw samples, \(fixed(elapsed, 1)) s\n"
        )
        var rows: [[String]] = []
        for (sensor, name) in names.enumerated() {
            // The window every client saw whole: from the latest first sample to the earliest last.
            let streams = (0..<clients).map { times[$0][sensor] }
            guard let from = streams.compactMap(\.first).max(), let to = streams.compactMap(\.last).min(), to > from
            else {
                rows.append([name, "–", "–", "–", "–", "–", "–"])
                continue
            }
            // The chip converts every 12.5 ms: the window spans this many conversions.
            let conversions = Int(((to - from) / period).rounded()) + 1
            let counts = streams.map { stream in stream.filter { $0 >= from && $0 <= to }.count }
            let ordered = streams.allSatisfy { stream in zip(stream, stream.dropFirst()).allSatisfy { $0 < $1 } }
            // The driver's discards are missing from every stream alike; a client that lost
            // something in delivery has fewer than the best-served client.
            let best = counts.max() ?? 0
            let worst = counts.min() ?? 0
            rows.append([
                name, "\(conversions)", "\(best)", "\(conversions - best)", "\(best - worst)", ordered ? "yes" : "NO"
            ])
        }
        let publishedDelta = names.map { (after[$0]?.published ?? 0) - (before[$0]?.published ?? 0) }.reduce(0, +)
        let discardedDelta = names.map { (after[$0]?.discarded ?? 0) - (before[$0]?.discarded ?? 0) }.reduce(0, +)
        print(
            TextTable.render(
                header: [
                    "sensor", "conversions", "received (best client)", "not delivered (driver discards)",
                    "lost by a client", "in order"
                ],
                rows: rows))
        print(
            """

            conversions: what the chip converted in the window every client saw whole (its conversion times span it);
            not delivered: conversions no client received; the driver discarded \(discardedDelta) read-outs in the run \
            (\(Self.reasons(before, after))) and published \(publishedDelta) samples;
            lost by a client: fewer samples than the best-served client got over the same window
            """)
        print(
            """

            OVERFLOW reports to clients: \(overflows)
            daemon CPU: \(fixed(cpu * 100, 1)) % of one core (\(fixed(cpu * 1000, 1)) ms per second)
            daemon memory: \(fixed(idle, 1)) MiB resident before the clients, \(fixed(peak, 1)) MiB peak (VmHWM)
            GPIO operations per HX711 sample (the driver on counting lines): \(fixed(operations.perSample, 1)) \
            (\(fixed(Double(operations.clockSets) / Double(operations.samples), 1)) PD_SCK sets, \
            \(fixed(Double(operations.dataGets) / Double(operations.samples), 1)) DOUT reads, \
            \(fixed(Double(operations.edgeWaits) / Double(operations.samples), 1)) edge waits, \
            \(fixed(Double(operations.edgeReads) / Double(operations.samples), 1)) edge-event reads); \
            through libgpiod each is one system call on a Pi
            """)
    }

    /// Per sensor, from ?DEVICES on a client of its own: samples published, and samples the
    /// driver discarded (all reasons together) with the reasons that had any.
    struct Counts {
        var published = 0
        var discarded = 0
        var reasons: [String: Int] = [:]
    }

    /// The discard reasons that grew during the run, with how much.
    static func reasons(_ before: [String: Counts], _ after: [String: Counts]) -> String {
        var totals: [String: Int] = [:]
        for (name, counts) in after {
            for (reason, count) in counts.reasons {
                totals[reason, default: 0] += count - (before[name]?.reasons[reason] ?? 0)
            }
        }
        let grown = totals.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        return grown.isEmpty
            ? "none"
            : grown.map { "\($0.value) \(String($0.key.map { $0 == "_" ? " " : $0 }))" }.joined(separator: ", ")
    }

    /// Each sensor's published and discarded counts, from the daemon's DEVICES report.
    static func published(_ socket: String) throws -> [String: Counts] {
        var result: [String: Counts] = [:]
        for device in try DaemonClient(socketPath: socket).devices() {
            var counts = Counts(published: device.published)
            for (reason, count) in device.discarded {
                counts.discarded += count
                counts.reasons[reason] = count
            }
            result[device.sensor] = counts
        }
        return result
    }
}
