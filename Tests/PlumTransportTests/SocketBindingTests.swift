import PlumSystem
import PlumTestSupport
import PlumTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Binding the client socket")
struct SocketBindingTests {
    private func server(_ endpoints: [ListenerEndpoint]) -> SocketServer {
        SocketServer(
            hub: ClientHub(configuration: .withoutIdleClose), requestHandler: ScaleRequestHandler(),
            endpoints: endpoints, logger: quietLogger)
    }

    @Test("a stale socket left by a dead daemon is removed and the new daemon serves")
    func staleSocket() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        // Bound and closed without unlink: what a crash leaves behind.
        close(RawSocket.bound(path, type: SOCK_STREAM))
        let server = server([.unixSocket(path: path)])
        try await server.start()
        let client = try TestClient(path: path)
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        await server.shutdown()
    }

    @Test("a regular file at the socket path is refused with its path, and left alone")
    func regularFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        let file = open(path, O_CREAT | O_WRONLY, 0o644)
        _ = write(file, "keep me", 7)
        close(file)
        let error = await #expect(throws: SystemError.self) { try await server([.unixSocket(path: path)]).start() }
        #expect(error?.code == .pathOccupied)
        #expect(
            error?.description
                == "binding \(path): the path exists and is not a socket, so it is not ours to remove; "
                + "move that file away or configure another socket path"
        )
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_size == 7)
    }

    @Test("a socket another daemon listens on is refused, and that daemon keeps serving")
    func liveDaemon() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        let first = server([.unixSocket(path: path)])
        try await first.start()
        let error = await #expect(throws: SystemError.self) { try await server([.unixSocket(path: path)]).start() }
        #expect(error?.code == .alreadyRunning)
        #expect(
            error?.description.contains("another daemon is listening there; stop it (systemctl stop plumscaled)")
                == true)
        let client = try TestClient(path: path)
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        await first.shutdown()
    }

    @Test("the socket gets mode 0660 and missing parent directories are created with mode 0755")
    func modes() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/run/plumscale/plumscale.sock"
        let server = server([.unixSocket(path: path)])
        try await server.start()
        #expect(RawSocket.mode(of: path).map { $0 & 0o7777 } == 0o660)
        #expect(RawSocket.mode(of: path).map { $0 & S_IFMT } == S_IFSOCK)
        #expect(RawSocket.mode(of: directory.path + "/run/plumscale").map { $0 & 0o7777 } == 0o755)
        await server.shutdown()
        #expect(RawSocket.mode(of: path) == nil)
    }

    @Test("a group that does not exist is refused by name and the socket is not left behind")
    func unknownGroup() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        let error = await #expect(throws: SystemError.self) {
            try await server([.unixSocket(path: path, group: "no-such-group-plum")]).start()
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("'no-such-group-plum': no such group") == true)
        #expect(RawSocket.mode(of: path) == nil)
    }

    @Test("TCP is refused on any address but loopback", arguments: ["0.0.0.0", "::", "192.168.1.20", "example.org"])
    func tcpNotLoopback(_ host: String) async throws {
        let error = await #expect(throws: SystemError.self) {
            try await server([.loopbackTCP(host: host, port: 0)]).start()
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("only loopback addresses are allowed") == true)
    }

    @Test("TCP on 127.0.0.1 serves the same protocol, and a failing second listener unbinds the first")
    func tcpLoopback() async throws {
        let directory = try TemporaryDirectory()
        let good = server([.loopbackTCP(host: "127.0.0.1", port: 0)])
        try await good.start()
        let port = try #require(good.boundAddresses.first??.port)
        let client = try TestClient(loopbackPort: port)
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        try await client.send("?POLL;\n")
        #expect(try await client.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))
        await good.shutdown()

        let path = directory.path + "/plumscale.sock"
        let failing = server([.unixSocket(path: path), .loopbackTCP(host: "10.0.0.1", port: 0)])
        await #expect(throws: SystemError.self) { try await failing.start() }
        // All or nothing: the Unix listener bound first is closed again, so its path is free.
        let again = server([.unixSocket(path: path)])
        try await again.start()
        await again.shutdown()
    }
}
