import FoundationEssentials
import PlumClient
import PlumProtocol
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `plumscale-mqtt` announces itself to the real `plumscaled` (`?CLIENT`, protocol
/// 1.7) through PlumClient, with its broker's state, so `plumscale status` lists it.
@Suite("plumscale-mqtt is listed by plumscaled", .serialized, .timeLimit(.minutes(3)))
struct BridgeAnnouncementProcessTests {
    /// Waits until the daemon lists plumscale-mqtt as `condition` wants, and returns it.
    static func bridgeListed(
        by daemon: DaemonFixture, _ what: String, _ condition: @escaping @Sendable (ServiceReport) -> Bool
    ) async throws -> ServiceReport {
        try await offPool {
            var seen: [ServiceReport] = []
            try waitUntil("plumscaled to list plumscale-mqtt \(what)", timeout: .seconds(30), describe: { "\(seen)" }) {
                seen = try daemon.client().devicesReport().clients ?? []
                return seen.contains { $0.name == "plumscale-mqtt" && condition($0) }
            }
            return try #require(seen.first { $0.name == "plumscale-mqtt" && condition($0) })
        }
    }

    @Test("the bridge is listed with its broker's state, through a broker outage, and as gone once it stops")
    func listedWithItsBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await BridgeProcessTests.daemon()
        let bridge = try BridgeProcessTests.bridge(daemon, broker: broker, scaleID: "listed")
        let up = try await Self.bridgeListed(by: daemon, "with its broker connected") {
            $0.connected && $0.detail["broker"] == .text("connected")
        }
        #expect(up.version == "0.1.0" && up.reconnects == 0 && up.connections == 1, "\(up); \(bridge.stderr)")
        #expect(up.started != nil && up.uptime != nil, "\(up)")

        await broker.kill()
        let down = try await Self.bridgeListed(by: daemon, "with its broker lost") {
            $0.connected && $0.detail["broker"] == .text("disconnected")
        }
        guard case .text(let problem)? = down.detail["broker_error"] else {
            Issue.record("no broker_error: \(down)")
            return
        }
        #expect(problem.contains("127.0.0.1:\(broker.port)"), "the error names the broker: \(problem)")
        try await broker.restart()
        _ = try await Self.bridgeListed(by: daemon, "with its broker back") {
            $0.connected && $0.detail["broker"] == .text("connected") && $0.detail["broker_error"] == nil
        }

        let run = await ChildProcess.plumscale(
            ["status", "--database", daemon.directory.file("no-history.sqlite")],
            environment: ["PLUMSCALE_SOCKET": daemon.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("\n  service      plumscale-mqtt 0.1.0: connected, up "),
            "plumscale status lists the bridge: \(run.stdout)")
        #expect(run.stdout.contains(", 0 reconnects; broker connected\n"), "\(run.stdout)")

        _ = bridge.stop()
        let gone = try await Self.bridgeListed(by: daemon, "as not connected") { !$0.connected }
        #expect(gone.lastSeen != nil, "\(gone)")
        await BridgeProcessTests.stop(daemon)
    }
}
