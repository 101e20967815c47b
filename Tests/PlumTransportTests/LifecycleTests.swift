#if canImport(Glibc)
import Glibc
#endif
import Logging
import PlumTransport
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing
import UnixSignals
import PlumTestSupport

@Suite("Running under swift-service-lifecycle")
struct LifecycleTests {
    @Test("graceful shutdown closes every client and removes the socket file")
    func gracefulShutdownClosesClients() async throws {
        let directory = try TemporaryDirectory()
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

@Suite("Reloading on SIGHUP")
struct ReloadTests {
    @Test("SIGHUP calls the reload hook between RELOADING=1 (with MONOTONIC_USEC) and READY=1 with its status")
    func sighup() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notify"
        let socket = RawSocket.bound(path, type: SOCK_DGRAM)
        defer { close(socket) }
        // Trap SIGHUP in this process first, so that a signal sent before the service has set
        // up its own trap cannot end the test run.
        let guardSignals = await UnixSignalsSequence(trapping: .sighup)
        let reloads = Atomic(0)
        let service = ReloadService(notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": path]), logger: quietLogger) {
            reloads.add(1, ordering: .relaxed)
            return "configuration reloaded"
        }
        let running = Task { try await service.run() }
        defer { running.cancel() }

        for _ in 0..<2000 where reloads.load(ordering: .relaxed) == 0 {
            kill(getpid(), SIGHUP)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(reloads.load(ordering: .relaxed) >= 1)
        let reloading = try #require(RawSocket.receive(socket))
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(RawSocket.receive(socket) == "READY=1\nSTATUS=configuration reloaded")
        _ = guardSignals
    }
}
