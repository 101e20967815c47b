import PlumHardware
import Testing

@testable import PlumBench

@Suite("Benchmark workloads")
struct ScriptedLoadTests {
    let origin = MonotonicInstant(nanoseconds: 1_000_000_000)
    func at(_ seconds: Double) -> MonotonicInstant { origin.advanced(byNanoseconds: UInt64(seconds * 1e9)) }

    @Test("truth follows steps and ramps; the pan also feels ringing and knocks")
    func truthAndFeel() {
        let load = ScriptedLoad(
            [
                .step(at: 1, to: 50),
                .ramp(at: 2, to: 150, duration: 2),
                .ringingStep(at: 5, to: 100, frequency: 4, decay: 0.1, depth: 1),
                .knock(at: 7, grams: 30, duration: 0.05)
            ], origin: origin)
        #expect(load.truth(at: at(0.5)) == 0)
        #expect(load.truth(at: at(1.5)) == 50)
        #expect(abs(load.truth(at: at(3)) - 100) < 1e-9, "half way up the ramp")
        #expect(load.truth(at: at(4.5)) == 150)
        #expect(load.truth(at: at(5)) == 100)
        // At the ringing step the pan still feels the old load (full-depth ringing of −50 g).
        #expect(abs(load.grams(at: at(5)) - 150) < 1e-9)
        #expect(abs(load.grams(at: at(6.5)) - 100) < 1e-3, "rung out after 15 time constants")
        #expect(abs(load.grams(at: at(7.01)) - 130) < 1e-6)
        #expect(load.truth(at: at(7.01)) == 100)
        #expect(load.changes == [1, 4, 5, 7])
    }

    @Test("a short workload through the chip model: PlumScale reaches ±1 d and stable on every step")
    func plumScaleSettlesOnSteps() throws {
        let workload = Workload(name: "short", events: [.step(at: 1, to: 100), .step(at: 3, to: 0)], duration: 5)
        let trace = try WorkloadTrace(workload: workload, rate: .sps80, seed: 1)
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: .sps80))
        let full = Double(try WorkloadTrace.calibrationCode(grams: 385, rate: .sps80))
        let shown = try FilterUnderTest.plumScale.run(trace, zero: zero, countsPerGram: (full - zero) / 385)
        let metrics = SettlingMetrics(shown, division: 0.1)
        #expect(metrics.settleTimes.count == 2)
        #expect(metrics.settleTimes.allSatisfy { $0 != nil })
        let wrong = shown.points.filter { $0.stable && $0.shown != nil && abs($0.shown! - $0.truth) > 0.1 + 1e-9 }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test(
        "small steps through the chip model: PlumScale never flags a display more than 1 d off stable, at 10 and 80 SPS",
        arguments: [10, 80])
    func plumScaleHonestOnSmallSteps(samplesPerSecond: Int) throws {
        let trace = try WorkloadTrace(workload: .smallSteps, rate: samplesPerSecond == 10 ? .sps10 : .sps80, seed: 2026)
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: trace.rate))
        let full = Double(try WorkloadTrace.calibrationCode(grams: 385, rate: trace.rate))
        let shown = try FilterUnderTest.plumScale.run(trace, zero: zero, countsPerGram: (full - zero) / 385)
        let wrong = shown.points.filter { $0.stable && $0.shown != nil && abs($0.shown! - $0.truth) > 0.1 + 1e-9 }
        #expect(wrong.isEmpty, "stable but more than 1 d off: \(wrong.prefix(5))")
        // Honest by being stable when it is right, not by never being stable.
        #expect(
            SettlingMetrics(shown, division: 0.1).settleTimes.allSatisfy { $0 != nil }, "some small step never settled")
    }

    @Test(
        "the true load under the same motion rule settles no later than any filter, one window and at most two conversions after the change",
        arguments: [UInt64(300_000_000), 100_000_000])
    func trueLoadIsTheFloor(window: UInt64) throws {
        let workload = Workload(name: "short", events: [.step(at: 1, to: 100), .step(at: 3, to: 20)], duration: 5)
        let trace = try WorkloadTrace(workload: workload, rate: .sps80, seed: 3)
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: .sps80))
        let full = Double(try WorkloadTrace.calibrationCode(grams: 385, rate: .sps80))
        func worst(_ filter: FilterUnderTest) throws -> Double? {
            let shown = try filter.run(trace, zero: zero, countsPerGram: (full - zero) / 385, stabilityWindow: window)
            let times = SettlingMetrics(shown, division: 0.1).settleTimes
            guard times.allSatisfy({ $0 != nil }) else { return nil }
            return times.compactMap { $0 }.max()
        }
        let floor = try #require(try worst(.truth))
        // One conversion to show the new load, then the whole window to vouch for it.
        let seconds = Double(window) / 1e9
        #expect(floor >= seconds && floor <= seconds + 2 * 0.0125 + 1e-9, "floor \(floor) s for a \(seconds) s window")
        for filter in [FilterUnderTest.plumScale] + FilterUnderTest.peers {
            if let settle = try worst(filter) {
                #expect(
                    settle >= floor - 1e-9,
                    "\(filter.name) settled in \(settle) s, before the true load could (\(floor) s)")
            }
        }
    }
}
