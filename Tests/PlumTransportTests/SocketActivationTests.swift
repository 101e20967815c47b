import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Sockets passed by systemd (LISTEN_FDS)")
struct SocketActivationTests {
    @Test("listening sockets placed at consecutive descriptors are adopted by name, made close-on-exec, and served")
    func adoption() async throws {
        let directory = try TemporaryDirectory()
        // Descriptors far above anything the test process uses stand in for 3 and 4.
        let first: Int32 = 700
        for (offset, name) in ["json.sock", "mtsics.sock"].enumerated() {
            let socket = RawSocket.bound(directory.path + "/" + name, type: SOCK_STREAM)
            #expect(listen(socket, 16) == 0)
            #expect(dup2(socket, first + Int32(offset)) == first + Int32(offset))
            close(socket)
            // dup2 clears FD_CLOEXEC, as an exec from systemd leaves it.
            #expect(fcntl(first + Int32(offset), F_GETFD) & FD_CLOEXEC == 0)
        }
        // The server adopts `first` (it owns it from then on and closes it at shutdown); closing
        // it here too could close a descriptor another test, or NIO's own event loop, was given
        // the number of meanwhile.
        var adopted = false
        defer {
            if !adopted { close(first) }
            close(first + 1)
        }

        let activation = try SocketActivation.parse(
            environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "json:mtsics"],
            processID: getpid(), firstDescriptor: first)
        #expect(
            activation.sockets == [.init(descriptor: first, name: "json"), .init(descriptor: first + 1, name: "mtsics")]
        )
        #expect(fcntl(first, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(first + 1, F_GETFD) & FD_CLOEXEC != 0)

        let json = try #require(activation.endpoint(named: "json"))
        #expect(json == .passedDescriptor(first, name: "json"))
        #expect(activation.endpoint(named: "other") == nil)
        let server = SocketServer(
            hub: ClientHub(configuration: .withoutIdleClose), requestHandler: ScaleRequestHandler(), endpoints: [json],
            logger: quietLogger)
        try await server.start()
        adopted = true
        let client = try TestClient(path: directory.path + "/json.sock")
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        try await client.send("?POLL;\n")
        #expect(try await client.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))
        await server.shutdown()
    }

    struct EnvironmentCase: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var error: String?
        var testDescription: String {
            environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    @Test(
        "the LISTEN_* variables are checked and a bad one is named",
        arguments: [
            EnvironmentCase(environment: [:], error: nil),
            EnvironmentCase(environment: ["LISTEN_FDS": "2"], error: nil),
            EnvironmentCase(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "2"], error: nil),
            EnvironmentCase(environment: ["LISTEN_PID": "SELF", "LISTEN_FDS": "0", "LISTEN_FDNAMES": ""], error: nil),
            EnvironmentCase(
                environment: ["LISTEN_PID": "abc", "LISTEN_FDS": "1"],
                error: "reading LISTEN_PID=\"abc\": it must be a process ID"),
            EnvironmentCase(
                environment: ["LISTEN_PID": "SELF", "LISTEN_FDS": "-1"],
                error: "reading LISTEN_FDS=\"-1\": it must be a small non-negative number"),
            EnvironmentCase(
                environment: ["LISTEN_PID": "SELF"],
                error: "reading LISTEN_FDS=\"\": LISTEN_PID is set, so LISTEN_FDS must say how many sockets were passed"
            ),
            EnvironmentCase(
                environment: ["LISTEN_PID": "SELF", "LISTEN_FDS": "0", "LISTEN_FDNAMES": "json:mtsics"],
                error: "reading LISTEN_FDNAMES=\"json:mtsics\": it names 2 sockets but LISTEN_FDS is 0")
        ])
    func environment(_ given: EnvironmentCase) throws {
        let pid = getpid()
        let environment = given.environment.mapValues { $0 == "SELF" ? "\(pid)" : $0 }
        if let expected = given.error {
            let error = #expect(throws: SystemError.self) {
                try SocketActivation.parse(environment: environment, processID: pid)
            }
            #expect(error?.code == .invalidEnvironment)
            #expect(error?.description.hasPrefix(expected) == true)
            #expect(
                error?.description.hasSuffix(
                    "start plumscaled from plumscaled.socket or without the LISTEN_* variables") == true)
        } else {
            #expect(try SocketActivation.parse(environment: environment, processID: pid).sockets.isEmpty)
        }
    }

    @Test("reading the process environment unsets the variables, so children do not inherit the sockets")
    func unsetsEnvironment() throws {
        // Another process's sockets: nothing is adopted, but the variables still go.
        setenv("LISTEN_PID", "1", 1)
        setenv("LISTEN_FDS", "1", 1)
        setenv("LISTEN_FDNAMES", "json", 1)
        #expect(try SocketActivation.fromProcessEnvironment().sockets.isEmpty)
        #expect(getenv("LISTEN_PID") == nil)
        #expect(getenv("LISTEN_FDS") == nil)
        #expect(getenv("LISTEN_FDNAMES") == nil)
    }

    /// A listening TCP socket bound to `host` (IPv4) on a port the kernel picks, and that port.
    private func tcpListener(_ host: String) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        let address = try #require(InternetSocketAddress(numericHost: host, port: 0))
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        try #require(bound == 0 && listen(descriptor, 4) == 0)
        let local = try #require(try InternetSocketAddress.local(of: descriptor).get())
        return (descriptor, local.port)
    }

    /// An IPv4 address of this machine other than loopback, if it has one.
    private func nonLoopbackAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
            var inet = UnsafeRawPointer(address).load(as: sockaddr_in.self)
            guard UInt32(bigEndian: inet.sin_addr.s_addr) >> 24 != 127 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &inet.sin_addr, &buffer, socklen_t(buffer.count))
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    @Test("a passed TCP socket bound beyond loopback is warned about by its address; loopback and Unix are not")
    func exposure() throws {
        let directory = try TemporaryDirectory()
        var listeners = [("loopback", try tcpListener("127.0.0.1")), ("any", try tcpListener("0.0.0.0"))]
        let unix = RawSocket.bound(directory.path + "/json.sock", type: SOCK_STREAM)
        #expect(listen(unix, 4) == 0)
        listeners.append(("unix", (unix, 0)))
        if let local = nonLoopbackAddress() { listeners.append(("lan", try tcpListener(local))) }
        // Descriptors far above anything the test process uses stand in for 3, 4, ….
        let first: Int32 = 720
        for (offset, listener) in listeners.enumerated() {
            #expect(dup2(listener.1.descriptor, first + Int32(offset)) == first + Int32(offset))
            close(listener.1.descriptor)
        }
        defer { for offset in listeners.indices { close(first + Int32(offset)) } }

        let activation = try SocketActivation.parse(
            environment: [
                "LISTEN_PID": "\(getpid())", "LISTEN_FDS": "\(listeners.count)",
                "LISTEN_FDNAMES": listeners.map(\.0).joined(separator: ":")
            ],
            processID: getpid(), firstDescriptor: first)
        let warnings = activation.exposureWarnings()
        var expected = [("any", first + 1, "0.0.0.0", listeners[1].1.port)]
        if listeners.count == 4 {
            let lan = try #require(nonLoopbackAddress())
            expected.append(("lan", first + 3, lan, listeners[3].1.port))
        }
        #expect(warnings.count == expected.count, "warnings: \(warnings)")
        for (warning, (name, descriptor, host, port)) in zip(warnings, expected) {
            #expect(
                warning
                    == "systemd passed socket '\(name)' (fd \(descriptor)) bound to \(host):\(port), not to "
                    + "loopback: other machines may connect to it; plumscaled's TCP is meant for loopback only, "
                    + "so set ListenStream=127.0.0.1:\(port) (or [::1]:\(port)) in the .socket unit")
        }
    }
}
