import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// A session goes on as the same session over a kill -9 of a real `plumscaled`: its items are
/// numbered on, what it left on the pan is counted once, and its bands stay its own
/// (docs/items.md, "Restarts").
@Suite(
    "A session over a kill -9 and a restart: numbers go on, the fruit on the pan counts once, the bands stay",
    .tags(.process), .timeLimit(.minutes(6)), .ownThreads)
struct SessionRestartProcessTests {
    typealias Crate = SessionProcessTests
    static let plums = SeededPlums.weights

    /// Bands that class every plum otherwise than ``SeededPlums/classes``: what a reload after
    /// the session started might bring.
    static let otherBands = """
        [[class]]
        name = "any"
        min_grams = 0

        """

    /// Starts a daemon on `bands` and waits for the pan to read `grams` stably for a second of
    /// its readings' time, so the item detector has confirmed its first level.
    static func start(_ directory: TemporaryDirectory, bands: String = SeededPlums.classes, reading grams: Double = 0)
        throws -> (DaemonFixture, DaemonClient)
    {
        let configuration = bands + SeededPlums.pan(loadFile: directory.file("pan.grams"))
        let daemon = try DaemonFixture(configuration: configuration, directory: directory)
        let client = try daemon.client()
        try client.watch()
        let there = { (report: WeightReport) in report.stable && abs((report.grams ?? .nan) - grams) < 0.5 }
        let first = try client.nextWeight(within: .seconds(30), where: there)
        _ = try client.nextWeight(within: .seconds(30)) { there($0) && $0.time >= first.time + 1 }
        return (daemon, client)
    }

    static func powerCut(_ daemon: DaemonFixture) {
        daemon.send(SIGKILL)
        #expect(daemon.waitForExit(timeout: .seconds(20)) == 128 + SIGKILL, "the daemon died of SIGKILL")
    }

    /// The next ITEM report of `event`.
    static func nextItem(_ event: String, _ client: DaemonClient, _ what: String) throws -> ItemReport {
        try client.nextReport(within: .seconds(20), what) { report in
            if case .item(let item) = report, item.event == event { item } else { nil }
        }
    }

    @Test("items read 1, 2, 3 over a kill -9, and the third is classed by the session's bands, not the new ones")
    func numbersAndBandsGoOn() async throws {
        let directory = try TemporaryDirectory(prefix: "plumrestart")
        try Crate.place(0, directory)
        try await offPool {
            let (daemon, client) = try Self.start(directory)
            let started = try client.session(SessionRequest(action: .start, name: "crate-8"))
            #expect(started.ok, "\(started.message)")
            let placed = try Crate.weigh(0..<2, client, directory)
            #expect(placed.map(\.item) == [1, 2], "the session's first two items")
            Self.powerCut(daemon)
        }
        let third = try await offPool { () throws -> ItemReport in
            let (daemon, client) = try Self.start(directory, bands: Self.otherBands)
            defer { _ = daemon.terminate() }
            let third = try Crate.weigh(2..<3, client, directory)[0]
            let shown = try #require(try client.session(SessionRequest(action: .show)).sessions.first)
            #expect(shown.items?.map(\.item) == [1, 2, 3], "numbered on: \(String(describing: shown.items))")
            #expect(shown.heaviestItem.map { (1...3).contains($0) } == true)
            #expect(shown.classes.map(\.name) == SeededPlums.classNames, "the session keeps its bands")
            #expect(shown.items?.last?.weightClass == third.weightClass, "the ITEM and the session agree")
            return third
        }
        #expect(third.item == 3, "the third item of the session is 3, not 1: \(third)")
        #expect(third.weightClass == SeededPlums.className(Self.plums[2]), "classed by the session's bands")
    }

    @Test("a plum on the pan at a kill -9 is not counted again; one placed while the daemon is down is counted")
    func fruitOnThePanCountsOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "plumonpan")
        try Crate.place(0, directory)
        try await offPool {
            let (daemon, client) = try Self.start(directory)
            #expect(try client.session(SessionRequest(action: .start, name: "crate-9")).ok)
            try Crate.place(Self.plums[0], directory)
            #expect(try Self.nextItem("placed", client, "the first plum").item == 1)
            Self.powerCut(daemon)
        }
        try await offPool {
            // Back with the plum still on the pan: it is item 1 still, and lifting it ends it.
            let (daemon, client) = try Self.start(directory, reading: Self.plums[0])
            try Crate.place(0, directory)
            let removed = try Self.nextItem("removed", client, "the first plum lifted")
            #expect(removed.item == 1, "the plum that was on the pan is item 1 still: \(removed)")
            let shown = try #require(try client.session(SessionRequest(action: .show)).sessions.first)
            #expect(shown.count == 1, "the plum on the pan was not counted again: \(shown.count)")
            Self.powerCut(daemon)
        }
        // Placed while the daemon was down.
        try Crate.place(Self.plums[1], directory)
        try await offPool {
            let daemon = try DaemonFixture(
                configuration: SeededPlums.classes + SeededPlums.pan(loadFile: directory.file("pan.grams")),
                directory: directory)
            defer { _ = daemon.terminate() }
            let client = try daemon.client()
            try client.watch()
            let placed = try Self.nextItem("placed", client, "the plum placed while the daemon was down")
            // Weighed from the zero of the last run, not as the difference of two levels seen in
            // this one: within that zero's reproducibility over a restart of the simulated chip
            // (0.2 g seen), not within 1 d.
            #expect(placed.item == 2 && abs(placed.grams - Self.plums[1]) <= 0.5, "\(placed)")
            let shown = try #require(try client.session(SessionRequest(action: .show)).sessions.first)
            #expect(shown.count == 2, "counted once: \(shown.count)")
        }
    }
}
