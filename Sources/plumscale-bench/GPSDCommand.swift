import ArgumentParser
import PlumBench
import PlumProtocol

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
            (gpsd serves its clients no Unix socket) by the same epoll reader.
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
        /// Daemon CPU seconds per report delivered to a client.
        var cpuPerReport: Double
        /// Resident memory at the end of the row, MiB.
        var rss: Double
        var fewestPerClient: Int
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
        let toml =
            "[daemon]\ntcp = \"127.0.0.1:\(plumPort)\"\nmax_clients = \(max(beyond, 64) + 16)\nclient_queue = 512\n\n"
            + "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\nrate = 10\nload_grams = 100\n"
        let daemon = try DaemonUnderTest(configuration: toml)
        defer { daemon.stop() }
        let plum = ProcessStats(pid: daemon.pid)

        print(
            "gpsd \(gps.version) and plumscaled side by side: \(fixed(Self.rate, 0)) reports a second from each, "
                + "watched over loopback TCP by one epoll reader, \(fixed(seconds, 0)) s per row.\n"
                + "Latency: from the NMEA fix written into gpsd's pseudo-terminal, or the HX711 sample's ready "
                + "edge in plumscaled, to the client's receipt of its TPV or WEIGHT report.\n")
        // What each costs with no watcher (plumscaled clocking the HX711 model bit by bit and
        // weighing; gpsd parsing NMEA): taken off, so the CPU per report is the fan-out's own.
        let ourBase = Self.idleCPU(plum, seconds: seconds)
        let theirBase = Self.idleCPU(gps.stats, seconds: seconds)
        print(
            "With no watcher: plumscaled \(fixed(ourBase * 100, 1)) % of a core (the driver clocking the simulated "
                + "HX711 and the engine), gpsd \(fixed(theirBase * 100, 1)) % (parsing NMEA); CPU per report below "
                + "is what each uses beyond that, divided by the reports its watchers received.\n")
        var rows: [[String]] = []
        var ratios: [[String]] = []
        var gpsdAtLimit: Figures?
        for count in counts {
            let ours = try measure(
                count, port: plumPort, stats: plum, idle: ourBase, watch: Request.watch(WatchOptions()).line
            ) {
                line, received in
                guard LineFields.isClass(line, "WEIGHT"), let time = LineFields.number(line, "time") else {
                    return nil
                }
                return received - time
            }
            let theirs = try measure(
                count, port: gpsdPort, stats: gps.stats, idle: theirBase, watch: #"?WATCH={"enable":true,"json":true};"#
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
                Self.ratio(ours.cpuPerReport, theirs.cpuPerReport), Self.ratio(ours.rss, theirs.rss)
            ])
        }
        if beyond > 0 {
            let ours = try measure(
                beyond, port: plumPort, stats: plum, idle: ourBase, watch: Request.watch(WatchOptions()).line
            ) {
                line, received in
                guard LineFields.isClass(line, "WEIGHT"), let time = LineFields.number(line, "time") else {
                    return nil
                }
                return received - time
            }
            rows.append(Self.row("\(beyond)", "plumscaled", ours))
            if let gpsdAtLimit {
                ratios.append([
                    "\(beyond) vs gpsd's \(counts.max() ?? 0)", Self.ratio(ours.p50, gpsdAtLimit.p50),
                    Self.ratio(ours.p99, gpsdAtLimit.p99), Self.ratio(ours.cpuPerReport, gpsdAtLimit.cpuPerReport),
                    Self.ratio(ours.rss, gpsdAtLimit.rss)
                ])
            }
        }
        print(
            TextTable.render(
                header: ["clients", "daemon", "p50 ms", "p99 ms", "CPU µs/report", "RSS MiB", "reports min/client"],
                rows: rows))
        print("\nplumscaled ÷ gpsd (below 1: plumscaled is ahead)\n")
        print(TextTable.render(header: ["clients", "p50", "p99", "CPU/report", "RSS"], rows: ratios))
    }

    /// Connects `count` watchers to `port`, lets them settle for a second, then reads for
    /// `seconds`: each report's latency as `latency` computes it, the daemon's CPU beyond its
    /// `idle` share of a core, and its memory.
    private func measure(
        _ count: Int, port: UInt16, stats: ProcessStats, idle: Double, watch: String,
        latency: (Substring, Double) -> Double?
    ) throws -> Figures {
        let swarm = ClientSwarm()
        defer { swarm.closeAll() }
        try swarm.connect(count, loopbackPort: port)
        swarm.sendAll(line: watch)
        swarm.read(until: Clock.now() + 1) { _, _, _ in }
        var latencies: [Double] = []
        latencies.reserveCapacity(Int(seconds * Self.rate) * count)
        var perClient = [Int](repeating: 0, count: count)
        let cpuBefore = stats.preciseCPUSeconds
        let start = Clock.now()
        swarm.read(until: start + seconds) { client, line, received in
            guard let value = latency(line, received) else { return }
            latencies.append(value)
            perClient[client] += 1
        }
        let cpu = max(0, stats.preciseCPUSeconds - cpuBefore - idle * (Clock.now() - start))
        let p = Percentiles(latencies)
        return Figures(
            p50: p.value(0.5), p99: p.value(0.99), cpuPerReport: cpu / Double(max(1, latencies.count)),
            rss: stats.memory("VmRSS"), fewestPerClient: perClient.min() ?? 0)
    }

    /// The share of a core `stats`'s process uses over `seconds` with no watcher.
    private static func idleCPU(_ stats: ProcessStats, seconds: Double) -> Double {
        let before = stats.preciseCPUSeconds
        let start = Clock.now()
        usleep(UInt32(seconds * 1e6))
        return (stats.preciseCPUSeconds - before) / (Clock.now() - start)
    }

    private static func row(_ clients: String, _ daemon: String, _ figures: Figures) -> [String] {
        [
            clients, daemon, fixed(figures.p50 * 1000, 2), fixed(figures.p99 * 1000, 2),
            fixed(figures.cpuPerReport * 1e6, 1), fixed(figures.rss, 1), "\(figures.fewestPerClient)"
        ]
    }

    private static func ratio(_ ours: Double, _ theirs: Double) -> String {
        theirs > 0 && ours.isFinite ? fixed(ours / theirs, 2) : "–"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freeLoopbackPort() throws -> UInt16 {
        let fd = socket_(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = LoopbackAddress(port: 0).address
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BenchError("cannot bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// 127.0.0.1:port as a `sockaddr_in`.
struct LoopbackAddress {
    var address = sockaddr_in()

    init(port: UInt16) {
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    }
}

/// gpsd on a pseudo-terminal, fed NMEA fixes at a fixed rate by a thread of this process.
final class GPSDUnderTest {
    let stats: ProcessStats
    let version: String
    private let feeder: NMEAFeeder
    private let directory: String

    init(program: String, port: UInt16, rate: Double) throws {
        var template = Array("/tmp/plumscale-bench-gpsd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot make a directory under /tmp: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        // posix_openpt, unlockpt and ptsname, as the kernel offers them (Glibc's module does not
        // import the XSI names): /dev/ptmx, TIOCSPTLCK to unlock, TIOCGPTN for the number.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var locked: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlock, &locked) == 0, ioctl(master, Self.number, &number) == 0 else {
            throw BenchError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let terminal = "/dev/pts/\(number)"
        // Raw, so the line discipline passes the sentences as written; readable by the user gpsd
        // drops to. The slave stays open here, so the terminal never hangs up between readers.
        let slave = open(terminal, O_RDWR | O_NOCTTY | O_CLOEXEC)
        var attributes = termios()
        tcgetattr(slave, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(slave, TCSANOW, &attributes)
        chmod(terminal, 0o666)
        feeder = NMEAFeeder(master: master, slave: slave, rate: rate)

        let arguments = [program, "-N", "-n", "-b", "-S", "\(port)", terminal]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/gpsd.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, nil, argv, environ)
        guard status == 0 else { throw BenchError("cannot start \(program): \(String(cString: strerror(status)))") }
        stats = ProcessStats(pid: child)
        feeder.start()

        // Ready once a watcher gets its first fix: gpsd has opened the terminal and parses it.
        let probe = ClientSwarm()
        defer { probe.closeAll() }
        var connected = false
        let deadline = Clock.now() + 10
        while !connected && Clock.now() < deadline {
            connected = (try? probe.connect(1, loopbackPort: port)) != nil
            if !connected { usleep(50_000) }
        }
        guard connected else {
            stats.terminate()
            throw BenchError("gpsd did not listen on 127.0.0.1:\(port) within 10 s; see \(directory)/gpsd.log")
        }
        probe.sendAll(line: #"?WATCH={"enable":true,"json":true};"#)
        var release = ""
        var fixed = false
        probe.read(until: Clock.now() + 10, done: { fixed }) { _, line, _ in
            if LineFields.isClass(line, "VERSION") { release = String(LineFields.string(line, "release") ?? "") }
            if LineFields.isClass(line, "TPV") && LineFields.string(line, "time") != nil { fixed = true }
        }
        guard fixed else {
            stats.terminate()
            throw BenchError("gpsd reported no fix from \(terminal) within 10 s; see \(directory)/gpsd.log")
        }
        version = release
    }

    /// TIOCSPTLCK and TIOCGPTN from <asm-generic/ioctls.h> (_IOW('T', 0x31, int), _IOR('T', 0x30, unsigned)).
    private static let unlock: UInt = 0x4004_5431
    private static let number: UInt = 0x8004_5430

    /// When the fix that gpsd reports with `time` (ISO 8601, UTC) was written to its terminal.
    func sentTime(ofFixAt time: Substring) -> Double? { feeder.sentTime(ofFixAt: time) }

    func stop() {
        feeder.stop()
        stats.terminate()
    }

    deinit { stop() }
}

/// Writes a GGA and an RMC sentence per fix into a pseudo-terminal, on a monotonic schedule,
/// and remembers the wall-clock time of each write. Fix n carries the time of day 12:00:00 +
/// n / rate, so a report's time names the fix it came from.
final class NMEAFeeder: @unchecked Sendable {
    private let master: Int32
    private let slave: Int32
    private let period: Double
    private let capacity = 1 << 20
    /// Wall-clock seconds at which fix n was written; written by the feeder thread before the
    /// write(2) that gpsd reads, read by the reader after a report of it arrived.
    private let sent: UnsafeMutablePointer<Double>
    private let running = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private var thread: pthread_t?
    static let startOfDay = 12.0 * 3600

    init(master: Int32, slave: Int32, rate: Double) {
        self.master = master
        self.slave = slave
        period = 1 / rate
        sent = .allocate(capacity: capacity)
        sent.initialize(repeating: .nan, count: capacity)
        running.initialize(to: 0)
    }

    func start() {
        running.pointee = 1
        let box = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        pthread_create(
            &handle, nil,
            { argument in
                let feeder = Unmanaged<NMEAFeeder>.fromOpaque(argument!).takeRetainedValue()
                feeder.feed()
                return nil
            }, box)
        thread = handle
    }

    func stop() {
        guard let thread else { return }
        running.pointee = 0
        pthread_join(thread, nil)
        self.thread = nil
        close(master)
        close(slave)
    }

    private func feed() {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var fix = 0
        while running.pointee != 0 && fix < capacity - 1 {
            fix += 1
            let bytes = Array(Self.sentences(fix: fix, period: period).utf8)
            sent[fix] = Clock.wall()
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            let due = Double(start.tv_sec) + Double(start.tv_nsec) / 1e9 + Double(fix) * period
            var next = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil) == EINTR {}
        }
    }

    func sentTime(ofFixAt time: Substring) -> Double? {
        // "2026-11-25T12:00:01.300Z": the time of day after the T.
        let bytes = Array(time.utf8)
        guard let t = bytes.firstIndex(of: UInt8(ascii: "T")), bytes.count >= t + 9 else { return nil }
        let clock = String(decoding: bytes[(t + 1)...].prefix { $0 != UInt8(ascii: "Z") }, as: UTF8.self)
        let parts = clock.split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) else {
            return nil
        }
        let fix = Int(((h * 3600 + m * 60 + s - Self.startOfDay) / period).rounded())
        guard fix > 0, fix < capacity, sent[fix].isFinite else { return nil }
        return sent[fix]
    }

    /// The GGA and RMC sentences of fix n, checksummed, CR LF ended.
    static func sentences(fix: Int, period: Double) -> String {
        let hundredths = Int((startOfDay + Double(fix) * period) * 100 + 0.5)
        let (hours, minutes) = (hundredths / 360_000, hundredths / 6_000 % 60)
        let seconds = hundredths % 6_000
        let time =
            two(hours) + two(minutes) + two(seconds / 100) + "." + two(seconds % 100)
        return sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + sentence("GPRMC,\(time),A,4807.038,N,01131.000,E,000.0,000.0,251126,,,A")
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self)
            + "\r\n"
    }

    deinit {
        sent.deallocate()
        running.deallocate()
    }
}
