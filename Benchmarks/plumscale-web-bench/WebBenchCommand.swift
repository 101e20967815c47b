import ArgumentParser
import PlumTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// WebSocket fan-out of plumscale-web: N browsers' worth of clients on `/ws`, fed by a real
/// plumscaled through the client library. Prints figures; asserts nothing.
@main
struct WebBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale-web-bench",
        abstract: "Latency from a plumscaled reading to N WebSocket clients of plumscale-web; its CPU and memory.",
        discussion: """
            Starts plumscaled --simulate (two pans at 80 SPS) and plumscale-web from the same build \
            folder, on a private socket and a free loopback port. For each --clients count, connects \
            that many WebSocket clients to /ws, lets them warm up, then measures each weight frame \
            from the reading's time stamp (the sample's CLOCK_REALTIME) to its arrival, and samples \
            plumscale-web's CPU and resident memory. Build with -c release for figures worth recording.
            """)

    @Option(help: "WebSocket clients per round; repeat for several rounds (default: 1 and 100).")
    var clients: [Int] = []
    @Option(help: "Seconds to measure per round.") var seconds = 20
    @Option(help: "Seconds after the clients connect before measuring.") var warmup = 3
    @Option(help: "Seconds to wait for every client's WebSocket handshake.") var connectTimeout = 60

    func validate() throws {
        guard clients.allSatisfy({ (1...5000).contains($0) }) else {
            throw ValidationError("--clients must be 1 to 5000.")
        }
        guard seconds > 0, warmup >= 0, connectTimeout > 0 else {
            throw ValidationError("--seconds and --connect-timeout must be > 0, --warmup ≥ 0.")
        }
    }

    func run() async throws {
        let rounds = clients.isEmpty ? [1, 100] : clients
        let daemon = try await offPool { try DaemonFixture() }
        let directory = try TemporaryDirectory(prefix: "plumscale-web-bench")
        let port = 20_000 + Int(getpid() % 20_000)
        let web = try BackgroundProcess(
            BuiltProducts.folder + "/plumscale-web",
            [
                // Room for the largest round twice over: the last round's watchers may still be closing.
                "--config", try directory.write("web.toml", "[web]\nmax_watchers = \(2 * (clients.max() ?? 100))\n"),
                "--socket", daemon.socketPath,
                "--listen", "127.0.0.1:\(port)", "--state-directory", directory.path
            ])
        defer { _ = daemon.terminate() }
        defer {
            kill(web.pid, SIGTERM)
            _ = web.finish(timeout: .seconds(10))
        }
        try await offPool { try web.waitForOutput("plumscale-web on http://") }
        let webFigures = ProcessFigures(pid: web.pid)
        let daemonFigures = ProcessFigures(pid: daemon.pid)
        try await Task.sleep(for: .seconds(2))  // the link to the daemon, no clients yet
        let idle = webFigures.memory("VmRSS")

        print(
            "plumscale-web-bench: plumscaled --simulate (2 pans, 80 SPS) → client library → plumscale-web "
                + "→ /ws;")
        print(
            "\(warmup) s warm-up, \(seconds) s measured per round; "
                + "latency = reading time stamp → frame at the client")
        print("")
        print(
            "clients  frames/client min  max    p50 ms  p99 ms   max ms  web CPU  web RSS MiB  daemon CPU  "
                + "bench CPU")
        print(
            "-------  -----------------  -----  ------  -------  ------  -------  -----------  ----------  "
                + "---------")
        for count in rounds {
            let round = FanOutRound(url: "ws://127.0.0.1:\(port)/ws", clients: count)
            let clientsTask = Task { await round.run() }
            // A service too busy to answer every handshake in time is a figure too: the round
            // goes on with the clients that got in, and says how many did not.
            let allIn: Void? = try? await waitFor(
                "\(count) WebSocket clients to connect", timeout: .seconds(connectTimeout),
                interval: .milliseconds(50)
            ) { round.connected == count }
            if allIn == nil {
                print(
                    "  only \(round.connected) of \(count) clients connected within \(connectTimeout) s; "
                        + "measuring those")
            }
            try await Task.sleep(for: .seconds(warmup))
            let before = (web: webFigures.cpuSeconds, daemon: daemonFigures.cpuSeconds, bench: Self.ownCPU())
            round.measure(true)
            try await Task.sleep(for: .seconds(seconds))
            round.measure(false)
            let percent = { (now: Double, then: Double) in (now - then) / Double(seconds) * 100 }
            let cpu = (
                web: percent(webFigures.cpuSeconds, before.web),
                daemon: percent(daemonFigures.cpuSeconds, before.daemon),
                bench: percent(Self.ownCPU(), before.bench)
            )
            let rss = webFigures.memory("VmRSS")
            round.stop()
            await clientsTask.value
            let tally = round.result()
            let frames = round.framesOfJoined
            let values = tally.latencies
            func quantile(_ q: Double) -> Double {
                values.isEmpty ? .nan : values[min(values.count - 1, Int(Double(values.count - 1) * q))]
            }
            print(
                Self.pad("\(tally.connected)", 9) + Self.pad("\(frames.min() ?? 0)", 19)
                    + Self.pad("\(frames.max() ?? 0)", 7)
                    + Self.pad(Self.format(quantile(0.5)), 8) + Self.pad(Self.format(quantile(0.99)), 9)
                    + Self.pad(Self.format(values.last ?? .nan), 8) + Self.pad(Self.format(cpu.web) + " %", 9)
                    + Self.pad(Self.format(rss), 13) + Self.pad(Self.format(cpu.daemon) + " %", 12)
                    + Self.format(cpu.bench) + " %")
            let closed = tally.failures.filter { !$0.contains("ChannelError") }
            if !closed.isEmpty { print("  \(closed.count) clients failed, first: \(closed[0])") }
        }
        print("")
        print(
            "plumscale-web RSS: \(Self.format(idle)) MiB linked to the daemon with no client; "
                + "peak \(Self.format(webFigures.memory("VmHWM"))) MiB (VmHWM)")
    }

    static func ownCPU() -> Double { ProcessFigures(pid: getpid()).cpuSeconds }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
