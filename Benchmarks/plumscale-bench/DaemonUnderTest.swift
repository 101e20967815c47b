import FoundationEssentials
import PlumClient
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The real `plumscaled`, started by the benchmark as systemd would start it: with a
/// NOTIFY_SOCKET of the benchmark's, so the time to READY=1 is measured, not guessed.
final class DaemonUnderTest {
    let directory: String
    let socket: String
    let pid: pid_t
    /// Seconds from exec to the READY=1 datagram.
    private(set) var secondsToReady: Double = .nan
    private let notify: Int32
    /// Set when a failure points at the daemon's log: the directory is then left for reading.
    private var keepsDirectory = false

    /// This executable's path.
    static var selfPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// The built `plumscaled` beside this executable (SwiftPM puts products in one folder).
    static var binary: String {
        selfPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            + "/plumscaled"
    }

    /// Writes `configuration` (TOML) and starts the daemon on it; returns once it is READY.
    /// - Parameters:
    ///   - program: the daemon to run; by default the one built beside this benchmark.
    ///   - launcher: a program and its arguments that run the daemon, such as valgrind.
    init(configuration: String, program: String = DaemonUnderTest.binary, launcher: [String] = []) throws {
        var template = Array("/tmp/plumscale-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot make a directory under /tmp: \(Errno.current)")
        }
        directory = String(cString: made)
        socket = directory + "/plumscale.sock"
        let config = directory + "/plumscale.toml"
        try Self.write(config, configuration)
        guard access(program, X_OK) == 0 else {
            throw BenchError(
                program == Self.binary
                    ? "no plumscaled at \(program); build it first: swift build -c release"
                    : "no executable plumscaled at \(program); give the path of a built one")
        }

        let notify = socket_(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.notify = notify
        let notifyPath = directory + "/notify"
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: notifyPath)
        } catch {
            throw BenchError("notify socket: \(error)")
        }
        _ = address.withSockaddr { bind(notify, $0, $1) }

        var environment = ["NOTIFY_SOCKET=\(notifyPath)"]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("LISTEN_") { environment.append(text) }
            pointer = pointer.advanced(by: 1)
        }
        let arguments: [String] =
            launcher + [program, "--config", config, "--socket", socket, "--state-directory", directory + "/state"]
        let executable = launcher.first ?? program
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Its log goes to a file, so the tables stay readable.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/daemon.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let start = Clock.now()
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw BenchError("cannot start \(executable): \(Errno(rawValue: status))")
        }
        pid = child

        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(notify, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(notify, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                kill(pid, SIGKILL)
                throw failure("plumscaled sent no READY=1 within 30 s")
            }
            if String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") {
                secondsToReady = Clock.now() - start
                break
            }
        }
    }

    deinit {
        stop()
        close(notify)
        // The socket, the configuration and the daemon's state: nothing is left under /tmp,
        // unless a failure sent the reader to the log.
        if !keepsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// An error that sends the reader to the daemon's log, which is then kept.
    func failure(_ message: String) -> BenchError {
        keepsDirectory = true
        return BenchError("\(message); see \(directory)/daemon.log")
    }

    /// SIGTERM, and waits for it.
    func stop() { ProcessStats(pid: pid).terminate() }

    /// CPU seconds (user + system) the daemon has used.
    var cpuSeconds: Double { ProcessStats(pid: pid).cpuSeconds }

    /// A field of /proc/<pid>/status in MiB, such as "VmRSS" or "VmHWM" (the peak).
    func memory(_ field: String) -> Double { ProcessStats(pid: pid).memory(field) }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ path: String, _ text: String) throws {
        guard let file = fopen(path, "w") else {
            throw BenchError("cannot write \(path): \(Errno.current)")
        }
        fputs(text, file)
        fclose(file)
    }
}

/// `socket(2)`, under a name that does not clash with the stored property.
@inline(__always) func socket_(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { socket(domain, type, proto) }

/// A benchmark that cannot go on, and why.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Monotonic and wall-clock seconds.
enum Clock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func wall() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
