import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// Items and sessions end to end, as at a packing table: a real `plumscaled` with a simulated
/// pan whose load is a file the test writes, a real Unix socket, and PlumClient.
@Suite(
    "A session of 30 plums through a real plumscaled, killed and restarted half-way", .tags(.process),
    .timeLimit(.minutes(6)), .ownThreads)
struct SessionProcessTests {
    static func configuration(_ directory: TemporaryDirectory) -> String {
        SeededPlums.classes + SeededPlums.pan(loadFile: directory.file("pan.grams"))
    }

    static let plums = SeededPlums.weights

    static func className(_ grams: Double) -> String { SeededPlums.className(grams) }

    /// Writes `grams` as the load on the pan: the simulated chip reads it from now on.
    static func place(_ grams: Double, _ directory: TemporaryDirectory) throws {
        try directory.write("pan.grams", "\(grams)\n")
    }

    /// Starts a daemon and waits until the empty pan has read a stable ~0 g for a second of
    /// its readings' time: the item detector's first level (the empty pan) is then confirmed,
    /// even when the initial zero or the restored one moved the gross and restarted it.
    static func start(_ directory: TemporaryDirectory) throws -> (DaemonFixture, DaemonClient) {
        let daemon = try DaemonFixture(configuration: configuration(directory), directory: directory)
        let client = try daemon.client()
        try client.watch()
        let empty = { (report: WeightReport) in report.stable && abs(report.grams ?? .nan) < 0.5 }
        let first = try client.nextWeight(within: .seconds(30), where: empty)
        _ = try client.nextWeight(within: .seconds(30)) { empty($0) && $0.time >= first.time + 1 }
        return (daemon, client)
    }

    /// Places each plum of `range`, waits for its `placed` ITEM, takes it off and waits for its
    /// `removed`: the ITEM reports of the placements.
    static func weigh(_ range: Range<Int>, _ client: DaemonClient, _ directory: TemporaryDirectory) throws
        -> [ItemReport]
    {
        var placed: [ItemReport] = []
        for index in range {
            try place(plums[index], directory)
            placed.append(
                try client.nextReport(within: .seconds(20), "the ITEM of plum \(index + 1)") { report in
                    if case .item(let item) = report, item.event == "placed" { item } else { nil }
                })
            try place(0, directory)
            _ = try client.nextReport(within: .seconds(20), "the removal of plum \(index + 1)") { report in
                if case .item(let item) = report, item.event == "removed" { item } else { nil }
            }
        }
        return placed
    }

    @Test("30 plums one after another: 30 items each within 1 d of its truth, the right classes, over a kill -9")
    func thirtyPlums() async throws {
        let directory = try TemporaryDirectory(prefix: "plumsession")
        try Self.place(0, directory)
        let before = try await offPool { () throws -> [ItemReport] in
            let (daemon, client) = try Self.start(directory)
            let started = try client.session(SessionRequest(action: .start, name: "crate-7"))
            #expect(started.ok && started.sessions.first?.sensor == "pan", "\(started.message)")
            let placed = try Self.weigh(0..<15, client, directory)
            let shown = try client.session(SessionRequest(action: .show)).sessions.first
            #expect(shown?.count == 15, "15 recorded before the power cut: \(String(describing: shown))")
            daemon.send(SIGKILL)
            #expect(daemon.waitForExit(timeout: .seconds(20)) == 128 + SIGKILL, "the daemon died of SIGKILL")
            return placed
        }
        #expect(before.map(\.weightClass) == Self.plums[0..<15].map(Self.className), "each ITEM carries its class")
        let session = try await offPool { () throws -> SessionSummary in
            let (daemon, client) = try Self.start(directory)
            #expect(daemon.log.contains("session crate-7 on pan goes on with 15 items"), "\(daemon.log)")
            _ = try Self.weigh(15..<30, client, directory)
            let stopped = try client.session(SessionRequest(action: .stop))
            #expect(stopped.ok, "\(stopped.message)")
            let shown = try client.session(SessionRequest(action: .show, name: "crate-7")).sessions.first
            return try #require(shown, "the stopped session is kept")
        }
        let items = try #require(session.items)
        #expect(session.count == 30 && items.count == 30 && !session.running, "\(session.count) items")
        for (item, truth) in zip(items, Self.plums) {
            #expect(abs(item.grams - truth) <= 0.1 + 1e-9, "item \(item.item): \(item.grams) g for a \(truth) g plum")
        }
        let expected = SeededPlums.classCounts
        #expect(session.classes.map(\.name) == SeededPlums.classNames)
        #expect(session.classes.map(\.count) == expected, "class counts \(session.classes) for truths \(expected)")
        #expect(abs(session.total - Self.plums.reduce(0, +)) <= 3, "the total within 30 d: \(session.total)")
    }
}
