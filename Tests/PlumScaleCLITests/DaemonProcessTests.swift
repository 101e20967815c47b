import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `plumscaled` as a child process, spoken to over its real Unix socket.
final class DaemonProcess {
    let pid: pid_t
    let socketPath: String

    /// The built `plumscaled`, beside `plumscale`.
    static let binary = String(ChildProcess.plumscale.dropLast("plumscale".count) + "plumscaled")

    convenience init(_ arguments: [String], socketPath: String) throws {
        try self.init(command: [Self.binary] + arguments, socketPath: socketPath)
    }

    /// Runs `command` (its first element an absolute path), which becomes or starts the daemon,
    /// as `systemd-socket-activate` does.
    init(command: [String], socketPath: String) throws {
        var pid: pid_t = 0
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, command[0], nil, nil, argv, environ)
        try #require(status == 0, "posix_spawn \(command[0]): \(status)")
        self.pid = pid
        self.socketPath = socketPath
    }

    /// Sends `signal` without waiting.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Sends SIGTERM and returns the exit status.
    func terminate() -> Int32 {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }

    // pid 0 would signal the whole process group: the test runner itself.
    deinit { if pid > 0 { kill(pid, SIGKILL) } }
}

/// A line-oriented client on a Unix socket, with a receive timeout so no test can hang.
final class LineClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// `receiveBuffer` shrinks SO_RCVBUF, to make a slow reader quickly.
    init?(path: String, attempts: Int = 100, receiveBuffer: Int32? = nil) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for _ in 0..<attempts {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if result == 0 { return }
            usleep(50_000)  // the daemon is still starting
        }
        // deinit closes fd: it runs when a failable init of a fully initialised class fails.
        return nil
    }

    /// Connects to `127.0.0.1:port`.
    init?(loopbackPort port: Int, attempts: Int = 100) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for _ in 0..<attempts {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if result == 0 { return }
            usleep(50_000)
        }
        // deinit closes fd: it runs when a failable init of a fully initialised class fails.
        return nil
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    /// The next line, or nil on timeout or end of stream.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads lines until one satisfies `predicate` (at most `limit` lines).
    func readUntil(limit: Int = 2000, _ predicate: (String) -> Bool) -> String? {
        for _ in 0..<limit {
            guard let line = readLine() else { return nil }
            if predicate(line) { return line }
        }
        return nil
    }
}

@Suite("plumscaled, as a child process on a real socket")
struct DaemonProcessTests {
    @Test("greets, streams weights of both simulated pans, answers poll, devices, tare and bad input, and stops on SIGTERM")
    func simulatedDaemon() throws {
        let directory = temporaryDirectory()
        let socketPath = "\(directory)/plumscale.sock"
        let daemon = try DaemonProcess(
            ["--simulate", "--socket", socketPath, "--state-directory", "\(directory)/state"], socketPath: socketPath)
        let client = try #require(LineClient(path: socketPath), "could not connect to \(socketPath)")

        #expect(client.readLine() == #"{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":0}"#)

        client.send(#"?WATCH={"enable":true};"#)
        #expect(client.readUntil { $0.contains(#""class":"WATCH""#) } != nil)
        let left = try #require(client.readUntil { $0.contains(#""class":"WEIGHT","sensor":"left""#) })
        #expect(client.readUntil { $0.contains(#""class":"WEIGHT","sensor":"right""#) } != nil)
        for field in ["time", "grams", "display", "unit", "percent", "stable", "overload", "underload", "zero", "tare", "heaviest", "hue", "calibrated"] {
            #expect(left.contains("\"\(field)\":"), "WEIGHT lacks \(field): \(left)")
        }
        #expect(left.contains(#""calibrated":true"#), "a simulated pan is weighed with its exact transfer function")

        client.send("?POLL;")
        let poll = try #require(client.readUntil { $0.hasPrefix(#"{"class":"POLL""#) })
        #expect(poll.contains(#""sensor":"left""#) && poll.contains(#""sensor":"right""#))

        client.send("?DEVICES;")
        let devices = try #require(client.readUntil { $0.hasPrefix(#"{"class":"DEVICES""#) })
        #expect(devices.contains(#""sensor":"left""#) && devices.contains(#""kind":"simulated-hx711""#))

        client.send(#"?ZERO={"sensor":"middle"};"#)
        let unknown = try #require(client.readUntil { $0.hasPrefix(#"{"class":"ERROR""#) })
        #expect(unknown.contains(#"unknown sensor \"middle\""#) && unknown.contains(#"\"left\""#))

        client.send("this is not a request")
        #expect(client.readUntil { $0.hasPrefix(#"{"class":"ERROR""#) } != nil)
        client.send(#"?TARE={"sensor":"left"};"#)
        let tare = try #require(client.readUntil { $0.hasPrefix(#"{"class":"TARE""#) }, "the connection stays usable after bad input")
        #expect(tare.contains(#""sensor":"left""#))

        #expect(daemon.terminate() == 0)
        #expect(access(socketPath, F_OK) != 0, "the socket is removed on shutdown")
    }

    @Test("started with a soft open-file limit too small for max_clients, it raises its own to what the clients need")
    func raisesItsOpenFileLimit() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        // The default max_clients (256) and the reserve need 320 descriptors.
        try #require(limit.rlim_max >= 320, "the hard limit here is below 320; nothing to prove")
        let directory = temporaryDirectory()
        let socketPath = "\(directory)/plumscale.sock"
        // The shell lowers the soft limit, then becomes the daemon (exec), as a unit's
        // LimitNOFILE=200:<hard> would start it.
        let daemon = try DaemonProcess(
            command: ["/bin/sh", "-c", "ulimit -Sn 200 && exec \"$0\" \"$@\"", DaemonProcess.binary,
                      "--simulate", "--socket", socketPath, "--state-directory", "\(directory)/state"],
            socketPath: socketPath)
        let client = try #require(LineClient(path: socketPath), "could not connect to \(socketPath)")
        #expect(client.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true)
        let limits = readFile("/proc/\(daemon.pid)/limits")
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 5 && fields[3] == "320", "\(line)")
        #expect(daemon.terminate() == 0)
    }
}
