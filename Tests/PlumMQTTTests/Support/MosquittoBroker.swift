#if canImport(Glibc)
    import Glibc
#endif

/// A real mosquitto broker on a free loopback port, started from a temporary configuration and
/// killed when the test is done. `restart()` brings it back on the same port.
final class MosquittoBroker: @unchecked Sendable {
    // @unchecked Sendable: `process` is replaced only by restart()/stop(), called by the one test
    // that owns the broker, never concurrently.
    private(set) var port = 0
    let directory: String
    private var process: ChildProcess?

    /// Starts the broker; a port that another program took between the check and mosquitto's
    /// bind ("Address already in use") is replaced by another, up to five times.
    init() throws {
        directory = temporaryDirectory()
        var failure: (any Error)?
        for _ in 0..<5 {
            port = try Self.freePort()
            writeFile(
                "\(directory)/mosquitto.conf",
                """
                listener \(port) 127.0.0.1
                allow_anonymous true
                persistence false
                log_dest stderr
                log_type error
                log_type warning
                log_type information
                """)
            do {
                try start()
                return
            } catch {
                failure = error
            }
        }
        throw failure!
    }

    /// Starts mosquitto and waits for its "running" line: the listener is bound by then, and a
    /// broker that could not bind has said why and exited instead.
    private func start() throws {
        let process = try ChildProcess(
            ["mosquitto", "-c", "\(directory)/mosquitto.conf"], directory: directory,
            name: "mosquitto")
        self.process = process
        let started = waitUntil(seconds: 10) { process.stderr.contains(" running") || !process.isRunning }
        guard started, process.isRunning, Self.accepts(port: port) else {
            process.stop(SIGKILL)
            self.process = nil
            throw SpawnError(message: "mosquitto did not listen on 127.0.0.1:\(port): \(process.stderr)")
        }
    }

    /// Kills the broker (SIGKILL: nothing it holds survives, as after a crash) and waits until
    /// the port no longer accepts.
    func kill() {
        process?.stop(SIGKILL)
        process = nil
        _ = waitUntil(seconds: 5) { !Self.accepts(port: port) }
    }

    func restart() throws {
        kill()
        try start()
    }

    deinit { process?.stop(SIGKILL) }

    /// A free loopback port below the kernel's ephemeral range (32768 and up on Linux): a port
    /// the kernel handed out could be given again to any outgoing connection, or to another
    /// test's broker while this one is down for a restart.
    static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 12_000..<30_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            if bound { return port }
        }
        throw SpawnError(message: "no free loopback port between 12000 and 30000")
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
