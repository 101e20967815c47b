#if canImport(Glibc)
    import Glibc
#endif

/// A program the benchmark starts (broker, daemon, bridge), with its output in a file, and what
/// /proc says about its CPU time and memory.
final class BenchProcess {
    let pid: pid_t
    let name: String

    init(_ arguments: [String], log: String) throws(BenchFailure) {
        name = arguments[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A Dispatch or concurrency-pool thread blocks signals, and a child inherits the mask:
        // without this, a broker started from one would never see SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// User plus system CPU seconds so far (/proc/<pid>/stat fields 14 and 15).
    var cpuSeconds: Double {
        let text = Self.read("/proc/\(pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return .nan }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `VmRSS:`/`VmHWM:` line of /proc/<pid>/status, in MiB.
    func memory(_ field: String) -> Double {
        for line in Self.read("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return kib / 1024 }
        }
        return .nan
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
