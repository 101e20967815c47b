import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// Services as a user sees them in `?DEVICES` and `plumscale status` (protocol 1.7): a real
/// plumscaled, a service announcing itself through PlumClient's ``DaemonLink``, the daemon
/// killed and started again under it (the link reconnects and says so), and the service gone.
@Suite("?CLIENT: the daemon lists the services connected to it", .tags(.process), .timeLimit(.minutes(4)), .ownThreads)
struct ServicesProcessTests {
    static func services(_ daemon: DaemonFixture) throws -> [ServiceReport] {
        try daemon.client().devicesReport().clients
            ?? []
    }

    /// Waits until `daemon` lists `name` as `condition` wants, and returns it.
    static func listed(
        _ name: String, by daemon: DaemonFixture, _ what: String,
        _ condition: @escaping @Sendable (ServiceReport) -> Bool
    ) async throws -> ServiceReport {
        try await offPool {
            var seen: [ServiceReport] = []
            try waitUntil("plumscaled to list \(name) \(what)", timeout: .seconds(20), describe: { "\(seen)" }) {
                seen = try services(daemon)
                return seen.contains { $0.name == name && condition($0) }
            }
            return try #require(seen.first { $0.name == name && condition($0) })
        }
    }

    static func status(_ daemon: DaemonFixture) async -> [String] {
        let run = await ChildProcess.plumscale(
            ["status", "--database", daemon.directory.file("no-history.sqlite")],
            environment: ["PLUMSCALE_SOCKET": daemon.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test("a service announces, updates its facts, reconnects after a daemon restart and disappears")
    func announceReconnectDisappear() async throws {
        let directory = try TemporaryDirectory(prefix: "plumsvc")
        let first = try await offPool {
            try DaemonFixture(configuration: DaemonRunsProcessTests.configuration, directory: directory)
        }
        #expect(try await offPool { try Self.services(first) } == [], "none has announced itself yet")
        let before = Date().timeIntervalSince1970.rounded(.down)
        let announcer = ServiceAnnouncer(name: "test-bridge", version: "9.8.7", detail: ["broker": .text("connected")])
        let link = DaemonLink(
            socketPath: first.socketPath, backOff: BackOff(first: .milliseconds(50), limit: .milliseconds(200)),
            announcing: announcer)
        let running = Task { await link.run() }
        defer { running.cancel() }

        let listed = try await Self.listed("test-bridge", by: first, "connected") { $0.connected }
        #expect(listed.version == "9.8.7" && listed.reconnects == 0 && listed.connections == 1, "\(listed)")
        #expect(listed.started == announcer.started && listed.detail == ["broker": .text("connected")])
        let started = try #require(listed.started.flatMap { try? Date($0, strategy: .iso8601) })
        #expect(started.timeIntervalSince1970 >= before && started <= Date(), "\(listed)")
        #expect((listed.uptime ?? -1) >= 0 && (listed.uptime ?? .infinity) < 60, "\(listed)")

        #expect(link.announce(detail: ["broker": .text("disconnected"), "broker_error": .text("refused")]))
        _ = try await Self.listed("test-bridge", by: first, "with its new facts") {
            $0.detail["broker"] == .text("disconnected")
        }
        #expect(link.announcementRefusal == nil)

        // A power cut under the service: the link comes back to the new daemon by itself.
        try await offPool { ZeroTareRestartTests.powerCut(first) }
        let second = try await offPool {
            try DaemonFixture(configuration: DaemonRunsProcessTests.configuration, directory: directory)
        }
        let back = try await Self.listed("test-bridge", by: second, "back after a reconnect") { $0.connected }
        #expect(back.reconnects == 1, "the link counts its reconnect: \(back)")
        #expect(back.connections == 1, "a new daemon counts the connections it saw itself: \(back)")
        #expect(back.detail["broker_error"] == .text("refused"), "the facts survive a reconnect: \(back)")
        #expect(back.uid == getuid(), "the announcing peer's uid, by SO_PEERCRED: \(back)")

        let connected = try #require((await Self.status(second)).first { $0.hasPrefix("  service      ") })
        #expect(connected.hasPrefix("  service      test-bridge 9.8.7: connected, up "), "\(connected)")
        #expect(
            connected.hasSuffix(", 1 reconnect; broker disconnected; broker error refused"), "\(connected)")

        running.cancel()
        await running.value
        let gone = try await Self.listed("test-bridge", by: second, "not connected") { !$0.connected }
        #expect(gone.uptime == nil && gone.connections == 1, "\(gone)")
        let lastSeen = try #require(gone.lastSeen.flatMap { try? Date($0, strategy: .iso8601) }, "\(gone)")
        #expect(abs(lastSeen.timeIntervalSinceNow) < 60, "\(gone)")
        let lines = await Self.status(second)
        let since = gone.lastSeen ?? "?"
        #expect(
            lines.contains(
                "  service      test-bridge 9.8.7: not connected since \(since), 1 reconnect; "
                    + "broker disconnected; broker error refused"),
            "\(lines)")

        // The same name again: the daemon counts a second connection under it.
        let again = DaemonLink(socketPath: second.socketPath, announcing: ServiceAnnouncer(name: "test-bridge"))
        let rerun = Task { await again.run() }
        defer { rerun.cancel() }
        let twice = try await Self.listed("test-bridge", by: second, "connected again") { $0.connected }
        #expect(twice.connections == 2 && twice.reconnects == 0 && twice.lastSeen == nil, "\(twice)")
        #expect(try await offPool { second.terminate() } == 0)
    }

    @Test("a bad name is refused with the field named, and the link still watches")
    func refusedName() async throws {
        let daemon = try await offPool { try DaemonFixture(configuration: DaemonRunsProcessTests.configuration) }
        let link = DaemonLink(socketPath: daemon.socketPath, announcing: ServiceAnnouncer(name: "my bridge"))
        let reports = link.reports()
        let running = Task { await link.run() }
        defer { running.cancel() }
        var weights = 0
        for await report in reports {
            if case .weight = report { weights += 1 }
            if weights >= 2 { break }
        }
        try await waitFor("the link to record the refusal", timeout: .seconds(10)) { link.announcementRefusal != nil }
        #expect(link.announcementRefusal?.hasPrefix(#"?CLIENT: "name" must be 1 to 40 characters"#) == true)
        #expect(try await offPool { try Self.services(daemon) } == [])
    }
}
