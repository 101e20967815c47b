import PlumTestSupport
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
#endif

/// One local user who may not change the scale must not be able to fill the daemon's client
/// slots and so lock out the web service, the bridge and the admins. A loopback TCP client has no
/// credentials, so it is exactly such a peer; this process (root or the daemon's own user) on the
/// Unix socket is one that may change the scale.
@Suite("Client slots kept for peers that may change the scale, and idle clients", .serialized)
struct ClientSlotTests {
    private func server(_ configuration: ClientHub.Configuration, unixPath: String) -> SocketServer {
        SocketServer(
            hub: ClientHub(configuration: configuration), requestHandler: ScaleRequestHandler(),
            endpoints: [.unixSocket(path: unixPath), .loopbackTCP(host: "127.0.0.1", port: 0)],
            authorization: CommandAuthorization(daemonUID: geteuid(), unixSocket: unixPath), logger: quietLogger)
    }

    private func greeted(_ client: TestClient) async throws {
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
    }

    @Test("with the open slots full of unauthorised clients, one more is refused but authorised peers still get in")
    func reservedSlots() async throws {
        let directory = try TemporaryDirectory()
        let unixPath = directory.path + "/plumscale.sock"
        let server = server(.init(maximumClients: 4, reservedClients: 2, idleTimeout: nil), unixPath: unixPath)
        try await server.start()
        do {
            let port = try #require(server.boundAddresses.last??.port)
            let intruders = try (0..<2).map { _ in try TestClient(loopbackPort: port) }
            for intruder in intruders { try await greeted(intruder) }

            let oneMore = try TestClient(loopbackPort: port)
            #expect(
                try await oneMore.readToEnd() == [
                    "{\"class\":\"ERROR\",\"message\":\"too many clients (limit 4, of which the last 2 are kept for "
                        + "clients that may change the scale); try again later\"}"
                ])

            let admins = try (0..<2).map { _ in try TestClient(path: unixPath) }
            for admin in admins { try await greeted(admin) }
            try await admins[1].send("?TARE={\"sensor\":\"left\"};\n")
            #expect(
                try await admins[1].readLine() == ScaleRequestHandler.line(ScaleRequestHandler.command("TARE", "left")))

            let beyondTheLimit = try TestClient(path: unixPath)
            #expect(
                try await beyondTheLimit.readToEnd() == [
                    "{\"class\":\"ERROR\",\"message\":\"too many clients (limit 4); try again later\"}"
                ])
            #expect(server.hub.clientCount == 4)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("an unauthorised client that neither asks nor watches is closed with a reason; watchers and admins stay")
    func idleClients() async throws {
        let directory = try TemporaryDirectory()
        let unixPath = directory.path + "/plumscale.sock"
        // 3 s, not 1: on a busy machine the watcher's ?WATCH once reached the server more than a
        // second after it connected, and the watcher was closed as idle.
        let server = server(.init(maximumClients: 8, reservedClients: 2, idleTimeout: .seconds(3)), unixPath: unixPath)
        try await server.start()
        do {
            let port = try #require(server.boundAddresses.last??.port)
            let watcher = try TestClient(loopbackPort: port)
            try await greeted(watcher)
            try await watcher.send("?WATCH={\"enable\":true};\n")
            #expect(try await watcher.readLine()?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true") == true)
            let admin = try TestClient(path: unixPath)
            try await greeted(admin)

            let idle = try TestClient(loopbackPort: port)
            try await greeted(idle)
            let reason =
                "{\"class\":\"ERROR\",\"message\":\"closing an idle connection: no request and no ?WATCH for 3 s; "
                + "send requests more often, watch with ?WATCH={\\\"enable\\\":true};, or connect again when needed\"}"
            #expect(try await idle.readToEnd() == [reason])

            // A second idle client, connected after the first was closed, is closed too: by then
            // the watcher's and the admin's own idle deadlines have long passed.
            let later = try TestClient(loopbackPort: port)
            try await greeted(later)
            #expect(try await later.readToEnd() == [reason])

            for client in [watcher, admin] {
                try await client.send("?POLL;\n")
                let lines = try await client.readLines { $0.hasPrefix("{\"class\":\"POLL\"") }
                #expect(lines.allSatisfy { !$0.contains("\"class\":\"ERROR\"") }, "read \(lines)")
            }
            #expect(server.hub.clientCount == 2)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}
