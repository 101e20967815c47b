import Logging
import PlumTestSupport
import PlumTransport
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

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
                let version = try await client.readLine()
                #expect(
                    version?.hasPrefix("{\"class\":\"VERSION\"") == true,
                    "expected VERSION, got \(version.debugDescription)")
                try await client.send("?WATCH={\"enable\":true};\n")
                let watch = try await client.readLine()
                #expect(
                    watch?.hasPrefix("{\"class\":\"WATCH\"") == true, "expected WATCH, got \(watch.debugDescription)")

                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
                let rest = try await client.readToEnd()
                #expect(rest.isEmpty, "the client was sent more before being closed: \(rest)")
                #expect(RawSocket.mode(of: path) == nil, "the socket file \(path) is still there")
                #expect(server.hub.clientCount == 0, "\(server.hub.clientCount) clients still counted")
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
        let systemd = DatagramReceiver(path: path)
        // Trap SIGHUP in this process first, so that a signal sent before the service has set
        // up its own trap cannot end the test run.
        let guardSignals = await UnixSignalsSequence(trapping: .sighup)
        let reloads = Atomic(0)
        let service = ReloadService(
            notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": path]), logger: quietLogger
        ) {
            reloads.add(1, ordering: .relaxed)
            return "configuration reloaded"
        }
        let running = Task { try await service.run() }
        defer { running.cancel() }

        // The service traps SIGHUP some time after it starts, and says nothing until then: send
        // SIGHUP until the hook has run.
        try await waitFor("the reload hook to run on SIGHUP") {
            if reloads.load(ordering: .relaxed) > 0 { return true }
            kill(getpid(), SIGHUP)
            return false
        }
        let reloading = try await systemd.next("RELOADING=1")
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="), "systemd got \(reloading.debugDescription)")
        let ready = try await systemd.next("READY=1 after the reload")
        #expect(ready == "READY=1\nSTATUS=configuration reloaded", "systemd got \(ready.debugDescription)")
        _ = guardSignals
    }
}
