import PlumBench
import PlumDrivers
import Testing

/// The benchmarks place their first load after PlumScale's power-up zero, so that they measure
/// settling, not the power-up.
@Suite("The benchmarks' first load comes after the power-up zero")
struct PowerUpZeroTests {
    @Test("a workload started later keeps its spacing and its time after the last event; one already late is not moved")
    func startingLater() {
        let moved = Workload.knocks.starting(at: 5)
        #expect(moved.duration == Workload.knocks.duration + 4)
        let late = Workload.knocks.starting(at: 0.5)
        #expect(late == Workload.knocks)
    }

    @Test("every settling workload at 10 SPS places its first load after the zero is set, and the trace shows it")
    func settlingWorkloadsAfterZero() throws {
        let benchmark = try SettlingBenchmark(rate: .sps10, seed: 2026)
        #expect(benchmark.powerUp.seconds > 1 && benchmark.powerUp.firstLoad > benchmark.powerUp.seconds)
        for trace in benchmark.traces {
            let first = try #require(trace.changes.min(), "\(trace.workload.name) has a change")
            #expect(first >= benchmark.powerUp.firstLoad, "\(trace.workload.name): first change at \(first) s")
            let before = trace.points.filter { $0.time < benchmark.powerUp.firstLoad }
            #expect(before.allSatisfy { $0.truth == 0 }, "\(trace.workload.name): the pan is empty until then")
        }
    }
}
