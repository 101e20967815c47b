import PlumClient
import PlumProtocol
import PlumTestSupport
import Synchronization
import Testing

/// The one reconnecting link, against the fake daemon on a real socket that a test stops and
/// starts again on the same path.
@Suite("DaemonLink: reconnects, resubscribes and carries requests", .timeLimit(.minutes(2)))
struct DaemonLinkTests {
    /// A link running in a task, and everything its subscriber saw.
    final class Running: Sendable {
        let link: DaemonLink
        let seen: Recorder
        private let collector: Task<Void, Never>
        private let runner: Task<Void, Never>

        final class Recorder: Sendable {
            let events = Mutex<[DaemonLink.Event]>([])
            func withLock<T>(_ body: ([DaemonLink.Event]) -> T) -> T { events.withLock { body($0) } }
        }

        init(_ link: DaemonLink) {
            self.link = link
            let recorder = Recorder()
            seen = recorder
            // Subscribed before the link starts, so its first `connecting` is seen.
            let events = link.events()
            collector = Task { for await event in events { recorder.events.withLock { $0.append(event) } } }
            runner = Task { await link.run() }
        }

        var states: [DaemonLink.State] {
            seen.withLock { $0.compactMap { if case .state(let state) = $0 { state } else { nil } } }
        }

        var reports: [Report] {
            seen.withLock { $0.compactMap { if case .report(let report) = $0 { report } else { nil } } }
        }

        var connections: Int { states.filter { if case .connected = $0 { true } else { false } }.count }

        /// Stops the link; its subscriber's sequence then ends.
        func stop() async {
            runner.cancel()
            await runner.value
            await collector.value
        }
    }

    static let quick = BackOff(first: .milliseconds(20), limit: .milliseconds(200))

    static func weightLine(_ sensor: String, grams: Double) -> String {
        #"{"class":"WEIGHT","sensor":"\#(sensor)","time":1795388111,"grams":\#(grams),"display":"\#(grams) g","#
            + #""unit":"g","percent":25,"stable":true,"overload":false,"underload":false,"zero":false,"tare":0,"#
            + ##""heaviest":false,"hue":90,"rgb":"#80ff00","calibrated":true}"##
    }

    @Test("after the daemon restarts on the same path the link connects again and sends the same ?WATCH")
    func resubscribes() async throws {
        let directory = try TemporaryDirectory(prefix: "plumlink")
        let daemon = try FakeDaemon(path: directory.file("d.sock"))
        defer { daemon.stop() }
        let asked = WatchOptions(sensors: ["left"], raw: true)
        let running = Running(DaemonLink(socketPath: daemon.path, watching: asked, backOff: Self.quick))

        try await waitFor("the daemon to be watched", describe: { "\(daemon.watches)" }) { daemon.watches == [asked] }
        daemon.push(Self.weightLine("left", grams: 3))
        try await waitFor("the first weight", describe: { "\(running.reports)" }) {
            running.reports.contains { if case .weight(let weight) = $0 { weight.grams == 3 } else { false } }
        }

        daemon.stop()
        try await waitFor("the link to notice", describe: { "\(running.states)" }) {
            if case .disconnected = running.link.state { true } else { false }
        }
        try daemon.start()
        try await waitFor("a second connection", describe: { "\(running.states)" }) { running.connections == 2 }
        try await waitFor("the second watch", describe: { "\(daemon.watches)" }) { daemon.watches == [asked] }
        let watches = daemon.requests.filter { if case .watch = $0 { true } else { false } }
        #expect(watches == [.watch(asked), .watch(asked)], "the same subscription both times: \(watches)")
        daemon.push(Self.weightLine("left", grams: 4))
        try await waitFor("the weight after the restart", describe: { "\(running.reports)" }) {
            running.reports.contains { if case .weight(let weight) = $0 { weight.grams == 4 } else { false } }
        }
        await running.stop()
    }

    @Test("state changes come in order: connecting, connected, disconnected, connecting …, connected; reports between")
    func statesInOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "plumlink")
        let daemon = try FakeDaemon(path: directory.file("d.sock"), release: "9.8.7")
        defer { daemon.stop() }
        let running = Running(DaemonLink(socketPath: daemon.path, backOff: Self.quick))
        try await waitFor("the watch") { daemon.watches.count == 1 }
        daemon.push(Self.weightLine("right", grams: 1))
        try await waitFor("the weight") { running.reports.contains { if case .weight = $0 { true } else { false } } }
        daemon.stop()
        // Down long enough for at least one failed attempt: the link says connecting again.
        try await waitFor("a failed attempt", describe: { "\(running.states)" }) {
            running.states.filter { $0 == .connecting }.count >= 3
        }
        try daemon.start()
        try await waitFor("the reconnection", describe: { "\(running.states)" }) { running.connections == 2 }
        await running.stop()

        let states = running.states
        let version = VersionReport(release: "9.8.7", protoMajor: 1, protoMinor: 5)
        #expect(Array(states.prefix(2)) == [.connecting, .connected(version)], "the start: \(states)")
        // Every change is one a link can make: connected only after connecting, disconnected
        // after either, connecting only after disconnected.
        for (before, after) in zip(states, states.dropFirst()) {
            let allowed: Bool =
                switch (before, after) {
                case (.connecting, .connected), (.connecting, .disconnected), (.connected, .disconnected),
                    (.disconnected, .connecting):
                    true
                default: false
                }
            #expect(allowed, "\(before) → \(after) in \(states)")
        }
        let connected = states.indices.filter { if case .connected = states[$0] { true } else { false } }
        #expect(connected.count == 2 && states[connected[1]] == .connected(version), "\(states)")
        #expect(states.last == .disconnected(reason: "the link was stopped"), "it ends stopped: \(states)")
        // The weight came while the first connection was up.
        let events = running.seen.withLock { $0 }
        let weightAt = try #require(events.firstIndex { if case .report(.weight) = $0 { true } else { false } })
        let firstConnected = try #require(events.firstIndex { if case .state(.connected) = $0 { true } else { false } })
        let firstLoss = try #require(events.firstIndex { if case .state(.disconnected) = $0 { true } else { false } })
        #expect(firstConnected < weightAt && weightAt < firstLoss, "the report between its connect and loss: \(events)")
    }

    @Test("back-off doubles from its first pause, never passes its limit, and jitter only shortens it")
    func backOffGrowsAndIsCapped() {
        let policy = BackOff()
        let ceilings = (0..<12).map { policy.ceiling(afterFailures: $0) }
        #expect(
            ceilings == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4)]
                + Array(repeating: .seconds(5), count: 7), "the default pauses: \(ceilings)")
        #expect(policy.ceiling(afterFailures: 10_000) == .seconds(5), "a daemon down for long waits the limit")
        for failures in 0..<12 {
            for unit in [0, 0.25, 0.5, 0.999] {
                let pause = policy.delay(afterFailures: failures, unit: unit)
                let ceiling = ceilings[failures]
                #expect(pause <= ceiling && pause >= ceiling * 0.8, "\(failures) failures, unit \(unit): \(pause)")
            }
        }
        let custom = BackOff(first: .milliseconds(100), limit: .milliseconds(350), jitter: 0)
        #expect(
            (0..<4).map { custom.delay(afterFailures: $0) }
                == [.milliseconds(100), .milliseconds(200), .milliseconds(350), .milliseconds(350)])
    }

    @Test("a request while the daemon is away fails at once, naming the socket and what to do")
    func requestWhileAway() async throws {
        let directory = try TemporaryDirectory(prefix: "plumlink")
        let path = directory.file("d.sock")
        let running = Running(DaemonLink(socketPath: path, backOff: Self.quick))
        try await waitFor("the link to give up a first time", describe: { "\(running.states)" }) {
            if case .disconnected = running.link.state { true } else { false }
        }
        let error = await #expect(throws: ClientError.self) { try await running.link.tare(sensor: "left") }
        #expect(error?.code == .noDaemon, "\(String(describing: error))")
        #expect(error?.socketPath == path)
        let message = error?.message ?? ""
        #expect(message.contains("?TARE") && message.contains(path), "says what failed where: \(message)")
        #expect(message.contains("systemctl start plumscaled"), "says what to do: \(message)")
        await running.stop()
    }

    @Test("requests are answered, a refusal is the daemon's, and after a restart they go through again")
    func requests() async throws {
        let directory = try TemporaryDirectory(prefix: "plumlink")
        let daemon = try FakeDaemon(path: directory.file("d.sock"))
        defer { daemon.stop() }
        let running = Running(DaemonLink(socketPath: daemon.path, backOff: Self.quick))
        let link = running.link
        #expect(try await link.devices().map(\.sensor) == ["left", "right"])
        let reply = try await link.tare(sensor: "left")
        #expect(reply.ok && reply.command == "TARE" && reply.sensor == "left", "\(reply)")
        let refusal = await #expect(throws: ClientError.self) { try await link.zero(sensor: "middle") }
        #expect(refusal?.code == .unknownSensor, "\(String(describing: refusal))")

        daemon.stop()
        try await waitFor("the link to notice") { if case .disconnected = link.state { true } else { false } }
        try daemon.start()
        let again = try await link.zero(sensor: "right")
        #expect(again.ok && again.command == "ZERO", "the request after the restart: \(again)")
        #expect(daemon.requests.contains(.zero(sensor: "right")))
        await running.stop()
    }
}
