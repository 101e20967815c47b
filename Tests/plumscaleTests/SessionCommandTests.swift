import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@Suite(
    "plumscale session against a real daemon", .tags(.process), .timeLimit(.minutes(3)),
    .ownThreads)
struct SessionCommandTests {
    @Test("start, a refused second start, a plum recorded, stop with the figures, list, and export as CSV")
    func lifecycle() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let start = await scale.plumscale(["session", "start", "crate-1"])
        #expect(start.status == 0 && start.stdout.contains("session crate-1 started on pan"), "\(start.stderr)")
        let again = await scale.plumscale(["session", "start", "crate-2"])
        #expect(again.status == 2 && again.stderr.contains("stop it first"), "exit \(again.status): \(again.stderr)")

        let daemon = scale.daemon
        try await offPool {
            let client = try daemon.client()
            try client.watch()
            // The empty pan's level first (a second of stable readings), then the plum.
            let empty = { (report: WeightReport) in report.stable && abs(report.grams ?? .nan) < 0.5 }
            let first = try client.nextWeight(within: .seconds(30), where: empty)
            _ = try client.nextWeight(within: .seconds(30)) { empty($0) && $0.time >= first.time + 1 }
            scale.place(72.4, on: "pan")
            _ = try client.nextReport(within: .seconds(20), "the session's news of the plum") { report in
                if case .session(let news) = report, news.action == "item" { news } else { nil }
            }
        }
        let stop = await scale.plumscale(["session", "stop"])
        #expect(stop.status == 0 && stop.stdout.contains("crate-1  pan"), "\(stop.stdout) \(stop.stderr)")
        #expect(stop.stdout.contains("1 item  72.4 g"), "\(stop.stdout)")
        let list = await scale.plumscale(["session", "list"])
        #expect(list.stdoutLines.count == 1 && list.stdout.contains("stopped"), "\(list.stdout)")
        let csv = await scale.plumscale(["session", "export", "crate-1", "--csv"])
        #expect(
            csv.stdoutLines == ["item,grams,class,flags,recorded_at"] + csv.stdoutLines.dropFirst(), "\(csv.stdout)")
        #expect(csv.stdoutLines.dropFirst().map { $0.hasPrefix("1,72.4,,,") } == [true], "\(csv.stdout)")
        let none = await scale.plumscale(["session", "stop"])
        #expect(none.status == 2 && none.stderr.contains("no session runs"), "\(none.stderr)")
    }
}
