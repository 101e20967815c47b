import ArgumentParser
import PlumBench
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// 3. Latency and fan-out: from a sample being ready to its WEIGHT report in each client.
struct LatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Measure sample-to-client latency with 1 to 1024 watchers, and the time to greet 1000 connections.")

    @Option(help: "Numbers of watching clients, comma-separated.")
    var clients: String = "1,64,256,1024"
    @Option(help: "How long to measure each, in seconds.")
    var seconds: Double = 10
    @Option(help: "Connections to accept and greet at once.")
    var connections: Int = 1000
    @Option(
        name: .customLong("daemon"),
        help: ArgumentHelp(
            "The plumscaled to measure; by default the one built beside this program.",
            discussion: "Two builds measured in turn by the same benchmark make an A/B comparison."))
    var program: String = DaemonUnderTest.binary

    func run() throws {
        ClientSwarm.raiseDescriptorLimit()
        let counts = clients.split(separator: ",").compactMap { Int($0.trimmingCharacters()) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--clients takes positive numbers, such as 1,64,256")
        }
        print(
            "Latency: one simulated HX711 at 80 SPS in real time; from the sample's ready edge (the WEIGHT report's "
                + "time) to its receipt by each client, over the Unix socket, \(fixed(seconds, 0)) s each\n"
        )
        var rows: [[String]] = []
        var saturated: [Int] = []
        for count in counts {
            let toml =
                "[daemon]\nmax_clients = \(count + 16)\nclient_queue = 512\n\n[[sensor]]\nname = \"pan\"\nkind = "
                + "\"simulated-hx711\"\nrate = 80\nload_grams = 100\n"
            let daemon = try DaemonUnderTest(configuration: toml, program: program)
            usleep(2_000_000)
            let swarm = ClientSwarm()
            try swarm.connect(count, to: daemon.socket)
            swarm.sendAll(.watch(WatchOptions()))
            swarm.read(until: Clock.now() + 1) { _, _, _ in }
            var latencies: [Double] = []
            latencies.reserveCapacity(Int(seconds * 80) * count)
            var perClient = [Int](repeating: 0, count: count)
            var overflows = 0
            let cpuBefore = daemon.cpuSeconds
            let ownBefore = Self.ownCPUSeconds()
            let start = Clock.now()
            swarm.read(until: start + seconds) { client, line, received in
                if LineFields.isClass(line, "OVERFLOW") {
                    overflows += 1
                    return
                }
                guard LineFields.isClass(line, "WEIGHT"), let time = LineFields.number(line, "time") else { return }
                latencies.append(received - time)
                perClient[client] += 1
            }
            let span = Clock.now() - start
            let cpu = (daemon.cpuSeconds - cpuBefore) / span
            let own = (Self.ownCPUSeconds() - ownBefore) / span
            daemon.stop()
            if own >= 0.9 { saturated.append(count) }
            let p = Percentiles(latencies)
            rows.append([
                "\(count)", fixed(p.value(0.5) * 1000, 2), fixed(p.value(0.99) * 1000, 2), fixed(p.max * 1000, 2),
                "\(perClient.min() ?? 0)", "\(perClient.max() ?? 0)", "\(overflows)", fixed(cpu * 100, 0) + " %",
                fixed(own * 100, 0) + " %"
            ])
        }
        print(
            TextTable.render(
                header: [
                    "clients", "p50 ms", "p99 ms", "max ms", "reports min/client", "max/client", "overflows",
                    "daemon CPU", "clients' CPU"
                ],
                rows: rows))
        print("(clients' CPU: this benchmark's one reader thread, which shares the two cores with the daemon)")
        if !saturated.isEmpty {
            // A reader at a full core falls behind: what it measures then is its own backlog.
            let counts = saturated.map(String.init).joined(separator: ", ")
            print(
                "the reader used a whole core at \(counts) clients: those latencies are the benchmark's backlog, "
                    + "not the daemon's; read them on a faster machine")
        }

        let daemon = try DaemonUnderTest(
            configuration:
                "[daemon]\nmax_clients = \(connections + 16)\n\n[[sensor]]\nname = \"pan\"\nkind = "
                + "\"simulated-hx711\"\nrate = 80\nload_grams = 100\n",
            program: program)
        usleep(1_000_000)
        let swarm = ClientSwarm()
        let start = Clock.now()
        try swarm.connect(connections, to: daemon.socket)
        swarm.read(until: start + 30, done: { swarm.greeted == connections }) { _, _, _ in }
        let elapsed = Clock.now() - start
        daemon.stop()
        print(
            "\n\(swarm.greeted) of \(connections) connections accepted and greeted with VERSION in "
                + "\(fixed(elapsed * 1000, 0)) ms (\(fixed(elapsed / Double(connections) * 1e6, 0)) µs each)"
        )
        print("daemon ready (READY=1) \(fixed(daemon.secondsToReady * 1000, 0)) ms after exec")
    }
}

extension LatencyCommand {
    /// CPU seconds this process has used (the clients' reader).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
