import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// Restarts as a user sees them in `?DEVICES`: a real plumscaled killed with SIGKILL (no
/// shutdown code runs) or stopped with SIGTERM, and started again on the same state directory.
@Suite(
    "?DEVICES counts restarts and tells a clean stop from a kill", .tags(.process), .timeLimit(.minutes(4)),
    .ownThreads)
struct DaemonRunsProcessTests {
    static let configuration = """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        load_grams = 10
        """

    static func daemonStatus(_ daemon: DaemonFixture) throws -> DevicesReport {
        try daemon.client().devicesReport()
    }

    @Test("first start: none; after SIGKILL: one unclean; after SIGTERM: clean, the unclean count kept")
    func killAndStop() async throws {
        let directory = try TemporaryDirectory(prefix: "plumruns")
        let before = Date().timeIntervalSince1970.rounded(.down)
        let first = try await offPool { try DaemonFixture(configuration: Self.configuration, directory: directory) }
        let report = try await offPool { try Self.daemonStatus(first) }
        let status = try #require(report.daemon, "DEVICES has the daemon object: \(report)")
        #expect(status.starts == 1 && status.uncleanStops == 0 && status.lastStop == nil, "\(status)")
        #expect(status.restarts == 0)
        let started = try #require(status.started.flatMap { try? Date($0, strategy: .iso8601) })
        #expect(
            started.timeIntervalSince1970 >= before && started.timeIntervalSince1970 <= Date().timeIntervalSince1970,
            "the start's wall time is between the test's launch and now: \(status)")
        #expect(status.stateDirectory == directory.file("state"))
        // The same file system, read apart from the daemon: the size is equal; the free space moves
        // with other writers (and FileManager may count the root reserve), so within 10 % of the size.
        let system = try FileManager.default.attributesOfFileSystem(forPath: directory.file("state"))
        let total = try #require((system[.systemSize] as? NSNumber)?.int64Value)
        let free = try #require((system[.systemFreeSize] as? NSNumber)?.int64Value)
        #expect(status.stateTotalBytes == total, "\(status); FileManager: \(total)")
        #expect(abs((status.stateFreeBytes ?? -1) - free) < total / 10, "\(status); FileManager: \(free) free")

        try await offPool { ZeroTareRestartTests.powerCut(first) }
        let second = try await offPool { try DaemonFixture(configuration: Self.configuration, directory: directory) }
        let afterKill = try await offPool { try Self.daemonStatus(second) }.daemon
        #expect(afterKill?.starts == 2 && afterKill?.uncleanStops == 1, "\(String(describing: afterKill))")
        #expect(afterKill?.lastStop == "unclean", "a SIGKILL is not a clean stop")
        try await offPool {
            try waitUntil("the daemon to log the unclean stop", timeout: .seconds(10), describe: { second.log }) {
                second.log.contains("the last run did not stop cleanly")
            }
        }
        #expect(try await offPool { second.terminate() } == 0, "SIGTERM stops it gracefully: \(second.log)")

        let third = try await offPool { try DaemonFixture(configuration: Self.configuration, directory: directory) }
        let afterStop = try await offPool { try Self.daemonStatus(third) }.daemon
        #expect(afterStop?.starts == 3 && afterStop?.uncleanStops == 1, "\(String(describing: afterStop))")
        #expect(afterStop?.lastStop == "clean", "SIGTERM is a clean stop")
        #expect(afterStop?.restarts == 2)
        let run = await ChildProcess.plumscale(
            ["status", "--database", directory.file("no-history.sqlite")],
            environment: ["PLUMSCALE_SOCKET": third.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("\n  restarts     2, 1 not clean; the last stop was clean\n"),
            "plumscale status shows the restarts: \(run.stdout)")
        #expect(try await offPool { third.terminate() } == 0)
    }
}
