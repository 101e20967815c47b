import Logging
import PlumDaemon
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite("Running under swift-service-lifecycle")
struct LifecycleTests {
    @Test("graceful shutdown closes every client and removes the socket file")
    func gracefulShutdownClosesClients() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        let server = SocketServer(
            hub: ClientHub(), requestHandler: ScaleRequestHandler(),
            endpoints: [.unixSocket(path: path)], logger: quietLogger)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                try await server.start()
                group.addTask { try await server.run() }
                let client = try TestClient(path: path)
                #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
                try await client.send("?WATCH={\"enable\":true};\n")
                #expect(try await client.readLine()?.hasPrefix("{\"class\":\"WATCH\"") == true)

                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
                #expect(try await client.readToEnd().isEmpty)
                #expect(RawSocket.mode(of: path) == nil)
                #expect(server.hub.clientCount == 0)
            }
        }
    }
}
