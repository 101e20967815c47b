import PlumCore
import PlumSensors
import Synchronization
import Testing

@testable import PlumStation

/// Collects the cues a station hands on.
final class CollectingSink: CueSink {
    let received = Mutex<[String]>([])
    func cue(_ cue: Cue, sensor: String) {
        received.withLock { $0.append("\(sensor) \(cue == .maxForce ? "max-force" : "stable")") }
    }
}

@Suite("The station hands cues to the cue output")
struct StationCueTests {
    @Test("full force on a pan reaches the attached cue output once, besides the CUE report")
    func maxForceReachesOutput() async throws {
        let bench = try await BalanceBench()
        let sink = CollectingSink()
        await bench.station.attachCueOutput(sink)
        try await bench.feed(0)
        try await bench.feed(390, count: 60)
        #expect(sink.received.withLock { $0 } == ["pan max-force"])
    }
}
