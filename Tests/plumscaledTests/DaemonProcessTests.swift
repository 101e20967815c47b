import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("plumscaled, as a child process on a real socket", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct DaemonProcessTests {
    @Test(
        "greets, streams weights of both simulated pans, answers poll, devices, tare and bad input, and stops on SIGTERM"
    )
    func simulatedDaemon() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        let socketPath = daemon.socketPath
        let client = try LineSocket(path: socketPath)
        try await offPool { try Self.converse(client) }
        #expect(daemon.terminate() == 0, "SIGTERM ends the daemon cleanly; log: \(daemon.log)")
        #expect(access(socketPath, F_OK) != 0, "the socket is removed on shutdown")
    }

    /// The conversation, byte for byte as the daemon writes it.
    static func converse(_ client: LineSocket) throws {
        let greeting = client.readLine()
        #expect(
            greeting == #"{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":9}"#,
            "the greeting was \(greeting ?? "nothing")")

        client.send(#"?WATCH={"enable":true};"#)
        #expect(client.readUntil { $0.contains(#""class":"WATCH""#) } != nil, "no WATCH answer")
        let left = try #require(
            client.readUntil { $0.contains(#""class":"WEIGHT","sensor":"left""#) }, "no WEIGHT of left")
        #expect(client.readUntil { $0.contains(#""class":"WEIGHT","sensor":"right""#) } != nil, "no WEIGHT of right")
        for field in [
            "time", "grams", "display", "unit", "percent", "stable", "overload", "underload", "zero", "tare",
            "heaviest", "hue", "calibrated"
        ] {
            #expect(left.contains("\"\(field)\":"), "WEIGHT lacks \(field): \(left)")
        }
        #expect(
            left.contains(#""calibrated":true"#), "a simulated pan is weighed with its exact transfer function: \(left)"
        )

        client.send("?POLL;")
        let poll = try #require(client.readUntil { $0.hasPrefix(#"{"class":"POLL""#) }, "no POLL answer")
        #expect(poll.contains(#""sensor":"left""#) && poll.contains(#""sensor":"right""#), "POLL lacks a pan: \(poll)")

        client.send("?DEVICES;")
        let devices = try #require(client.readUntil { $0.hasPrefix(#"{"class":"DEVICES""#) }, "no DEVICES answer")
        #expect(devices.contains(#""sensor":"left""#) && devices.contains(#""kind":"simulated-hx711""#), "\(devices)")

        client.send(#"?ZERO={"sensor":"middle"};"#)
        let unknown = try #require(
            client.readUntil { $0.hasPrefix(#"{"class":"ERROR""#) }, "no ERROR for sensor middle")
        #expect(unknown.contains(#"unknown sensor \"middle\""#) && unknown.contains(#"\"left\""#), "\(unknown)")

        client.send("this is not a request")
        #expect(
            client.readUntil { $0.hasPrefix(#"{"class":"ERROR""#) } != nil, "no ERROR for a line that is no request")
        client.send(#"?TARE={"sensor":"left"};"#)
        let tare = try #require(
            client.readUntil { $0.hasPrefix(#"{"class":"TARE""#) }, "the connection stays usable after bad input")
        #expect(tare.contains(#""sensor":"left""#), "TARE answered for another sensor: \(tare)")
    }

    @Test("started with a soft open-file limit too small for max_clients, it raises its own to what the clients need")
    func raisesItsOpenFileLimit() async throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, "getrlimit: \(errno)")
        // The default max_clients (256) and the reserve need 320 descriptors.
        try #require(limit.rlim_max >= 320, "the hard limit here is below 320; nothing to prove")
        // The shell lowers the soft limit, then becomes the daemon (exec), as a unit's
        // LimitNOFILE=200:<hard> would start it.
        let daemon = try await offPool {
            try DaemonFixture(command: ["/bin/sh", "-c", "ulimit -Sn 200 && exec \"$0\" \"$@\""])
        }
        let limits = readFile("/proc/\(daemon.pid)/limits")
        let line = try #require(
            limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }, "limits: \(limits)")
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 5 && fields[3] == "320", "the soft limit should be 320: \(line)")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }

    @Test(
        "out of descriptors, a new client waits in the listen queue, is greeted once another leaves, and the log says so once"
    )
    func waitsForADescriptor() async throws {
        // The shell lowers both limits, so the daemon cannot raise its own: 64 descriptors, of
        // which the daemon's own files, sockets and event loops take about 30.
        let daemon = try await offPool {
            try DaemonFixture(command: ["/bin/sh", "-c", "ulimit -n 64 && exec \"$0\" \"$@\""])
        }
        let shortage = "new clients wait in the queue until others disconnect"
        var greeted: [LineSocket] = []
        var queued: LineSocket?
        for _ in 0..<64 {
            let client = try LineSocket(path: daemon.socketPath)
            try await waitFor("a greeting, or the daemon saying it is out of descriptors", describe: { daemon.log }) {
                Self.isReadable(client.descriptor) || daemon.log.contains(shortage)
            }
            guard Self.isReadable(client.descriptor) else {
                queued = client
                break
            }
            let greeting = client.readLine()
            #expect(greeting?.hasPrefix(#"{"class":"VERSION""#) == true, "greeting: \(greeting ?? "none")")
            greeted.append(client)
        }
        let waiting = try #require(queued, "64 clients were all served with 64 descriptors; log: \(daemon.log)")
        #expect(greeted.count > 10, "only \(greeted.count) clients were served before the shortage")
        // Each shortage is logged once, not per retry, and each end of one once; a descriptor
        // the daemon opens for a moment can make a shortage of its own that ends at once.
        let resumed = "accepting connections on \(daemon.socketPath) again"
        let log = daemon.log
        #expect(
            Self.count(shortage, in: log) == Self.count(resumed, in: log) + 1,
            "one shortage logged and not yet over: \(log)")

        greeted.removeFirst()  // closes its socket: one descriptor comes free
        let greeting = try await offPool { waiting.readLine() }
        #expect(greeting?.hasPrefix(#"{"class":"VERSION""#) == true, "the queued client got \(greeting ?? "nothing")")
        let after = daemon.log
        #expect(
            Self.count(shortage, in: after) == Self.count(resumed, in: after),
            "no word that accepting resumed: \(after)")

        let other = try #require(greeted.last)
        other.send("?POLL;")
        #expect(other.readUntil { $0.hasPrefix(#"{"class":"POLL""#) } != nil, "a served client stays served")
        greeted.removeAll()
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }

    private static func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    private static func isReadable(_ descriptor: Int32) -> Bool {
        var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&polled, 1, 0) == 1
    }
}
