import FoundationEssentials
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// gpsd on a pseudo-terminal, fed NMEA fixes at a fixed rate by a thread of this process.
final class GPSDUnderTest {
    let stats: ProcessStats
    let version: String
    private let feeder: NMEAFeeder
    private let directory: String

    init(program: String, port: UInt16, rate: Double) throws {
        var template = Array("/tmp/plumscale-bench-gpsd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot make a directory under /tmp: \(Errno.current)")
        }
        directory = String(cString: made)
        // posix_openpt, unlockpt and ptsname, as the kernel offers them (Glibc's module does not
        // import the XSI names): /dev/ptmx, TIOCSPTLCK to unlock, TIOCGPTN for the number.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var locked: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlock, &locked) == 0, ioctl(master, Self.number, &number) == 0 else {
            throw BenchError("cannot open a pseudo-terminal: \(Errno.current)")
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
        guard status == 0 else { throw BenchError("cannot start \(program): \(Errno(rawValue: status))") }
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

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
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
