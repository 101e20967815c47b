import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@Suite("plumscale count against a real daemon", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct CountCommandTests {
    @Test("--pieces 10 on 25.3 g takes about 2.53 g a piece and prints the count; 50.6 g counts 20; --stop ends it")
    func counts() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let daemon = scale.daemon
        // The ten pieces settled, as a person waits for the display before taking the reference.
        try await offPool {
            let client = try daemon.client()
            try client.watch()
            scale.place(25.3, on: "pan")
            // The simulated cell's calibration is near, not exact: 25.3 g reads about 25.5 g.
            _ = try client.nextWeight(within: .seconds(20)) { $0.stable && abs(($0.grams ?? 0) - 25.3) < 0.5 }
        }
        let reference = await scale.plumscale(["count", "--pieces", "10"])
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(reference.stdout.contains("pan: 10 pieces, one weighs 2.5"), "\(reference.stdout)")
        #expect(reference.stdout.contains("pan: 10 pieces\n"), "the count then shown: \(reference.stdout)")
        try await offPool {
            let client = try daemon.client()
            try client.watch()
            scale.place(50.6, on: "pan")
            _ = try client.nextWeight(within: .seconds(20)) { $0.stable && $0.count == 20 }
        }
        let stop = await scale.plumscale(["count", "--stop"])
        #expect(stop.status == 0 && stop.stdout.contains("pan: counting stopped"), "\(stop.stdout) \(stop.stderr)")
        let neither = await scale.plumscale(["count"])
        #expect(neither.status != 0 && neither.stderr.contains("give --pieces N, or --stop"), "\(neither.stderr)")
    }
}
