import ArgumentParser
import PlumBench
import PlumProtocol
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// 6. gpsd side by side: the model Linux sensor daemon our protocol follows, fed at the same
/// report rate and watched by the same reader.
struct GPSDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpsd",
        abstract: "Measure plumscaled against gpsd: latency, CPU per delivered report and memory, 1 to 64 watchers.",
        discussion: """
            Needs Debian's gpsd (sudo apt-get install gpsd gpsd-clients). gpsd reads NMEA that this program writes into a pseudo-terminal, ten \
            fixes a second; plumscaled weighs a simulated HX711 at 10 SPS. Both are watched over loopback TCP \
            (gpsd serves its clients no Unix socket) by the same epoll reader; at --beyond, plumscaled alone \
            is also watched over its own Unix socket.
            """)

    @Option(help: "Numbers of watching clients, comma-separated (gpsd's limit is 64).")
    var clients: String = "1,16,64"
    @Option(help: "Then PlumScale alone at this many clients, against gpsd at its limit.")
    var beyond: Int = 256
    @Option(help: "How long to measure each, in seconds.")
    var seconds: Double = 30
    @Option(help: "The gpsd program.")
    var gpsd: String = "/usr/sbin/gpsd"

    /// Reports a second from each daemon: the HX711's slow rate, and a fast GPS receiver's.
    static let rate = 10.0

    struct Figures {
        var p50: Double
        var p99: Double
        /// Daemon CPU seconds per report delivered to a client; NaN when what the watchers cost
        /// is within the run-to-run spread of the daemon's idle CPU, too small to tell.
        var cpuPerReport: Double
        /// That spread per report: the most `cpuPerReport` can be when it is NaN.
        var cpuNoise: Double
        /// Resident memory at the end of the row, MiB.
        var rss: Double
        var fewestPerClient: Int
        /// With `fewestPerClient`: equal when every watcher got the same reports, so a shortfall
        /// from the rate is reports the daemon never made, not reports lost in delivery.
        var mostPerClient: Int
        /// `OVERFLOW` lines: plumscaled's notice of reports dropped for a slow client.
        var overflows: Int
    }

    func run() throws {
        ClientSwarm.raiseDescriptorLimit()
        let counts = clients.split(separator: ",").compactMap { Int($0.trimmingCharacters()) }
        guard !counts.isEmpty, counts.allSatisfy({ (1...64).contains($0) }) else {
            throw ValidationError("--clients takes numbers from 1 to 64 (gpsd's limit), such as 1,16,64")
        }
        guard access(gpsd, X_OK) == 0 else {
            throw BenchError("no gpsd at \(gpsd): sudo apt-get install gpsd gpsd-clients (or pass --gpsd PATH)")
        }
        let gpsdPort = try Self.freeLoopbackPort()
        let plumPort = try Self.freeLoopbackPort()
        let gps = try GPSDUnderTest(program: gpsd, port: gpsdPort, rate: Self.rate)
        defer { gps.stop() }
        // max_clients leaves room for a row's watchers while the daemon still closes the last
        // row's, so that none is refused as one too many.
        let toml =
            "[daemon]\ntcp = \"127.0.0.1:\(plumPort)\"\n"
            + "max_clients = \(2 * max(beyond, 64) + 16)\nclient_queue = 512\n\n"
            + "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\nrate = 10\nload_grams = 100\n"
        let daemon = try DaemonUnderTest(configuration: toml)
        defer { daemon.stop() }
        let plum = ProcessStats(pid: daemon.pid)

        print(
            "gpsd \(gps.version) and plumscaled side by side: \(fixed(Self.rate, 0)) reports a second from each, "
                + "watched over loopback TCP by one epoll reader, \(fixed(seconds, 0)) s per row; at \(beyond) "
                + "plumscaled alone, over TCP and then over its Unix socket (\"unix\").\n"
                + "Latency: from the NMEA fix written into gpsd's pseudo-terminal, or the HX711 sample's ready "
                + "edge in plumscaled, to the client's receipt of its TPV or WEIGHT report.\n")
        // What each costs with no watcher (plumscaled clocking the HX711 model bit by bit and
        // weighing; gpsd parsing NMEA): taken off, so the CPU per report is the fan-out's own.
        let ourBase = Self.idleCPU(plum, seconds: seconds)
        let theirBase = Self.idleCPU(gps.stats, seconds: seconds)
        print(
            "With no watcher: plumscaled \(fixed(ourBase.share * 100, 2)) ± \(fixed(ourBase.spread * 100, 2)) % of a "
                + "core (the driver clocking the simulated HX711 and the engine), gpsd "
                + "\(fixed(theirBase.share * 100, 2)) ± \(fixed(theirBase.spread * 100, 2)) % (parsing NMEA), "
                + "the ± being how far the two halves of the idle time differ; CPU per report below is what each "
                + "uses beyond that, divided by the reports its "
                + "watchers received, or the most it can be (\"<\") when it is within the ±.\n")
        let plumWatch = Request.watch(WatchOptions()).line
        var rows: [[String]] = []
        var ratios: [[String]] = []
        var gpsdAtLimit: Figures?
        for count in counts {
            let ours = try measure(count, at: .tcp(plumPort), stats: plum, idle: ourBase, watch: plumWatch) {
                Self.weightLatency($0, $1)
            }
            let theirs = try measure(
                count, at: .tcp(gpsdPort), stats: gps.stats, idle: theirBase,
                watch: #"?WATCH={"enable":true,"json":true};"#
            ) {
                line, received in
                guard LineFields.isClass(line, "TPV"), let time = LineFields.string(line, "time"),
                    let sent = gps.sentTime(ofFixAt: time)
                else { return nil }
                return received - sent
            }
            if count == counts.max() { gpsdAtLimit = theirs }
            rows.append(Self.row("\(count)", "plumscaled", ours))
            rows.append(Self.row("\(count)", "gpsd", theirs))
            ratios.append([
                "\(count)", Self.ratio(ours.p50, theirs.p50), Self.ratio(ours.p99, theirs.p99),
                Self.cpuRatio(ours, theirs), Self.ratio(ours.rss, theirs.rss)
            ])
        }
        if beyond > 0 {
            // Over TCP like gpsd's clients, then over the Unix socket that plumscaled's own
            // clients use: each daemon at four times gpsd's limit on its clients' transport.
            let overTCP = try measure(beyond, at: .tcp(plumPort), stats: plum, idle: ourBase, watch: plumWatch) {
                Self.weightLatency($0, $1)
            }
            let overUnix = try measure(
                beyond, at: .unix(daemon.socket), stats: plum, idle: ourBase, watch: plumWatch
            ) { Self.weightLatency($0, $1) }
            rows.append(Self.row("\(beyond)", "plumscaled", overTCP))
            rows.append(Self.row("\(beyond) unix", "plumscaled", overUnix))
            if let gpsdAtLimit {
                for (transport, ours) in [("", overTCP), (" unix", overUnix)] {
                    ratios.append([
                        "\(beyond)\(transport) vs gpsd's \(counts.max() ?? 0)", Self.ratio(ours.p50, gpsdAtLimit.p50),
                        Self.ratio(ours.p99, gpsdAtLimit.p99), Self.cpuRatio(ours, gpsdAtLimit),
                        Self.ratio(ours.rss, gpsdAtLimit.rss)
                    ])
                }
            }
        }
        print(
            TextTable.render(
                header: [
                    "clients", "daemon", "p50 ms", "p99 ms", "CPU µs/report", "RSS MiB", "reports min/client",
                    "max/client", "overflows"
                ],
                rows: rows))
        print("\nplumscaled ÷ gpsd (below 1: plumscaled is ahead)\n")
        print(TextTable.render(header: ["clients", "p50", "p99", "CPU/report", "RSS"], rows: ratios))
    }

    /// Where watchers connect: a loopback TCP port, or a Unix socket's path.
    enum Endpoint {
        case tcp(UInt16)
        case unix(String)
    }

    /// Connects `count` watchers to `endpoint`, lets them settle for a second, then reads for
    /// `seconds`: each report's latency as `latency` computes it, the daemon's CPU beyond its
    /// `idle` share of a core, and its memory. A watcher answered with an error (refused as one
    /// too many) stops the benchmark rather than leave a row that looks served.
    private func measure(
        _ count: Int, at endpoint: Endpoint, stats: ProcessStats, idle: IdleCPU, watch: String,
        latency: (Substring, Double) -> Double?
    ) throws -> Figures {
        let swarm = ClientSwarm()
        defer { swarm.closeAll() }
        switch endpoint {
        case .tcp(let port): try swarm.connect(count, loopbackPort: port)
        case .unix(let path): try swarm.connect(count, to: path)
        }
        swarm.sendAll(line: watch)
        var refusals: [Substring] = []
        swarm.read(until: Clock.now() + 1) { _, line, _ in
            if LineFields.isClass(line, "ERROR") { refusals.append(line) }
        }
        if let first = refusals.first {
            throw BenchError("\(refusals.count) of \(count) watchers were answered with an error, the first: \(first)")
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(Int(seconds * Self.rate) * count)
        var perClient = [Int](repeating: 0, count: count)
        let cpuBefore = stats.preciseCPUSeconds
        let start = Clock.now()
        var overflows = 0
        swarm.read(until: start + seconds) { client, line, received in
            if LineFields.isClass(line, "OVERFLOW") { overflows += 1 }
            guard let value = latency(line, received) else { return }
            latencies.append(value)
            perClient[client] += 1
        }
        let elapsed = Clock.now() - start
        let cpu = stats.preciseCPUSeconds - cpuBefore - idle.share * elapsed
        let reports = Double(max(1, latencies.count))
        let cpuPerReport = cpu > idle.spread * elapsed ? cpu / reports : .nan
        let p = Percentiles(latencies)
        return Figures(
            p50: p.value(0.5), p99: p.value(0.99), cpuPerReport: cpuPerReport,
            cpuNoise: idle.spread * elapsed / reports,
            rss: stats.memory("VmRSS"), fewestPerClient: perClient.min() ?? 0, mostPerClient: perClient.max() ?? 0,
            overflows: overflows)
    }

    /// A WEIGHT report's latency: from its `time` (the sample's ready edge) to its receipt.
    private static func weightLatency(_ line: Substring, _ received: Double) -> Double? {
        guard LineFields.isClass(line, "WEIGHT"), let time = LineFields.number(line, "time") else { return nil }
        return received - time
    }

    /// A daemon's share of a core with no watcher, and how far it moves on its own.
    struct IdleCPU {
        var share: Double
        /// How far the shares of the two halves of the measurement differ.
        var spread: Double
    }

    /// The share of a core `stats`'s process uses over `seconds` with no watcher, measured in
    /// two halves.
    private static func idleCPU(_ stats: ProcessStats, seconds: Double) -> IdleCPU {
        func share(over seconds: Double) -> Double {
            let before = stats.preciseCPUSeconds
            let start = Clock.now()
            usleep(UInt32(seconds * 1e6))
            return (stats.preciseCPUSeconds - before) / (Clock.now() - start)
        }
        let first = share(over: seconds / 2)
        let second = share(over: seconds / 2)
        return IdleCPU(share: (first + second) / 2, spread: abs(first - second))
    }

    private static func row(_ clients: String, _ daemon: String, _ figures: Figures) -> [String] {
        [
            clients, daemon, fixed(figures.p50 * 1000, 2), fixed(figures.p99 * 1000, 2),
            figures.cpuPerReport.isNaN ? "< " + fixed(figures.cpuNoise * 1e6, 1) : fixed(figures.cpuPerReport * 1e6, 1),
            fixed(figures.rss, 1),
            "\(figures.fewestPerClient)",
            "\(figures.mostPerClient)", daemon == "gpsd" ? "–" : "\(figures.overflows)"
        ]
    }

    /// The ratio of CPU per report, or the most it can be when ours is below the noise.
    private static func cpuRatio(_ ours: Figures, _ theirs: Figures) -> String {
        guard ours.cpuPerReport.isNaN, theirs.cpuPerReport > 0 else {
            return ratio(ours.cpuPerReport, theirs.cpuPerReport)
        }
        return "< " + fixed(ours.cpuNoise / theirs.cpuPerReport, 2)
    }

    private static func ratio(_ ours: Double, _ theirs: Double) -> String {
        theirs > 0 && ours.isFinite ? fixed(ours / theirs, 2) : "–"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freeLoopbackPort() throws -> UInt16 {
        let fd = socket_(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(Errno.current)") }
        defer { close(fd) }
        guard InternetSocketAddress.loopback(port: 0).withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            throw BenchError("cannot bind 127.0.0.1:0: \(Errno.current)")
        }
        switch InternetSocketAddress.local(of: fd) {
        case .success(let address?): return address.port
        case .success(nil): throw BenchError("127.0.0.1:0 is bound, but not to an internet address")
        case .failure(let errno): throw BenchError("reading the port bound at 127.0.0.1:0: \(errno)")
        }
    }
}
