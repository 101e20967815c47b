import Logging
import PlumTestSupport
import PlumTransport
import ServiceLifecycle
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Composing the daemon's transport in a ServiceGroup")
struct CompositionTests {
    /// What `plumscaled` will do, with the engine replaced by a loop that publishes readings.
    @Test("bind, READY=1, serve and ping the watchdog, then STOPPING=1 and close everything on graceful shutdown")
    func serviceGroup() async throws {
        let directory = try TemporaryDirectory()
        let systemd = DatagramReceiver(path: directory.path + "/notify")
        let environment = ["NOTIFY_SOCKET": directory.path + "/notify", "WATCHDOG_USEC": "100000"]
        let socketPath = directory.path + "/plumscale.sock"

        let notifier = SystemdNotifier(environment: environment)
        let activation = try SocketActivation.fromProcessEnvironment()
        let hub = ClientHub(configuration: .init(queueCapacity: 512))
        let server = SocketServer(
            hub: hub, requestHandler: ScaleRequestHandler(),
            endpoints: [activation.endpoint(named: "json") ?? .unixSocket(path: socketPath)],
            notifier: notifier, logger: quietLogger)
        let pinger = try WatchdogPinger(environment: environment, notifier: notifier, logger: quietLogger) { true }
        let reload = ReloadService(notifier: notifier, logger: quietLogger) { "reloaded" }

        try await server.start()
        try notifier.ready(status: "serving")
        let group = ServiceGroup(
            services: [server, pinger, reload], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: quietLogger)
        let running = Task { try await group.run() }

        let ready = try await systemd.next("READY=1")
        #expect(ready == "READY=1\nSTATUS=serving", "systemd got \(ready.debugDescription)")
        let ping = try await systemd.next("a watchdog ping")
        #expect(ping == "WATCHDOG=1", "systemd got \(ping.debugDescription)")

        let client = try TestClient(path: socketPath)
        let version = try await client.readLine()
        #expect(
            version?.hasPrefix("{\"class\":\"VERSION\"") == true, "expected VERSION, got \(version.debugDescription)")
        try await client.send("?WATCH={\"enable\":true};\n")
        _ = try await client.readLines { $0.hasPrefix("{\"class\":\"WATCH\"") }
        hub.publish(numberedReport(7))
        let published = try await client.readLine()
        #expect(published.flatMap(sequenceNumber) == 7, "expected report 7, got \(published.debugDescription)")

        await group.triggerGracefulShutdown()
        try await running.value
        // Watchdog pings may come before it, and a reload: the SIGHUP ReloadTests sends this
        // process reaches this group's ReloadService too. STOPPING=1 must come.
        let messages = try await systemd.next("STOPPING=1") { $0 == "STOPPING=1" }
        let expected = { (message: String) in
            message == "WATCHDOG=1" || message.hasPrefix("RELOADING=1\n") || message == "READY=1\nSTATUS=reloaded"
        }
        #expect(messages.dropLast().allSatisfy(expected), "before STOPPING=1 systemd got \(messages)")
        let rest = try await client.readToEnd()
        #expect(rest.isEmpty, "the client was sent more before being closed: \(rest)")
        #expect(RawSocket.mode(of: socketPath) == nil, "the socket file \(socketPath) is still there")
    }
}
