#if canImport(Glibc)
import Glibc
#endif
import Logging
import PlumTransport
import ServiceLifecycle
import Synchronization
import Testing
import PlumTestSupport

@Suite("Composing the daemon's transport in a ServiceGroup")
struct CompositionTests {
    /// What `plumscaled` will do, with the engine replaced by a loop that publishes readings.
    @Test("bind, READY=1, serve and ping the watchdog, then STOPPING=1 and close everything on graceful shutdown")
    func serviceGroup() async throws {
        let directory = try TemporaryDirectory()
        let notifySocket = RawSocket.bound(directory.path + "/notify", type: SOCK_DGRAM)
        defer { close(notifySocket) }
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
            services: [server, pinger, reload], gracefulShutdownSignals: [], cancellationSignals: [], logger: quietLogger)
        let running = Task { try await group.run() }

        #expect(RawSocket.receive(notifySocket) == "READY=1\nSTATUS=serving")
        #expect(RawSocket.receive(notifySocket) == "WATCHDOG=1")

        let client = try TestClient(path: socketPath)
        #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        try await client.send("?WATCH={\"enable\":true};\n")
        _ = try await client.readLines { $0.hasPrefix("{\"class\":\"WATCH\"") }
        hub.publish(numberedReport(7))
        #expect(try await client.readLine().flatMap(sequenceNumber) == 7)

        await group.triggerGracefulShutdown()
        try await running.value
        var stopping = false
        while let message = RawSocket.receive(notifySocket, timeoutSeconds: 5) {
            if message == "STOPPING=1" { stopping = true; break }
        }
        #expect(stopping)
        #expect(try await client.readToEnd().isEmpty)
        #expect(RawSocket.mode(of: socketPath) == nil)
    }
}
