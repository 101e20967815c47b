import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@Suite("plumscale check against a real daemon", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct CheckCommandTests {
    @Test("a target at the load is OK, one 10 g above it UNDER, and read shows the verdict; --stop ends it")
    func checks() async throws {
        let scale = try await ScaleFixture.start([("pan", 50)])
        let daemon = scale.daemon
        let shown = try await offPool { () throws -> Double in
            let client = try daemon.client()
            try client.watch()
            return try client.nextWeight(within: .seconds(20)) { $0.stable && $0.shownGrams != nil }.shownGrams ?? 0
        }
        let target = String(shown)
        let ok = await scale.plumscale(["check", "--target", target, "--minus", "1", "--plus", "1"])
        #expect(
            ok.status == 0 && ok.stdout.contains("checking against") && ok.stdout.hasSuffix("  OK\n"), "\(ok.stdout)")
        let read = await scale.plumscale(["read", "--stable"])
        #expect(read.stdout.contains(" OK"), "read shows the verdict: \(read.stdout)")
        let under = await scale.plumscale(["check", "--target", String(shown + 10)])
        #expect(under.status == 0 && under.stdout.hasSuffix("  UNDER\n"), "\(under.stdout) \(under.stderr)")
        let stop = await scale.plumscale(["check", "--stop"])
        #expect(stop.status == 0 && stop.stdout.contains("check-weighing stopped"), "\(stop.stdout)")
        let bad = await scale.plumscale(["check", "--target", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("--target must be a weight above 0 g"), "\(bad.stderr)")
    }
}
