import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// The estimator on trial (issue 45): what a level-and-rate filter with a jump rule must do,
/// whatever the noise, the rate and the load.
@Suite("The level-and-rate estimator", .ownThreads)
struct LevelRateFilterTests {
    static let d = 0.1

    /// Feeds `grams(t)` plus Gaussian noise at `rate` SPS for `seconds`; each step's time, level,
    /// and whether it was settled.
    static func run(
        _ filter: inout LevelRateFilter, rate: Int, seconds: Double, sigma: Double, seed: UInt64,
        from start: Double = 0, grams: (Double) -> Double
    ) -> [(t: Double, level: Double, settled: Bool, holding: Bool)] {
        var noise = SeededNoise(seed: seed)
        let count = Int(seconds * Double(rate))
        return (0..<count).map { index in
            let t = start + Double(index) / Double(rate)
            let level = filter.process(
                grams(t) + noise.gaussian(sigma: sigma), time: UInt64((t * 1e9).rounded()), noise: sigma, division: d)
            return (t, level, filter.isSettled(division: d, slopeLimit: 0.5 * d), filter.isHolding)
        }
    }

    @Test("a constant load: the level converges to it, within 4.5 of its own standard deviations")
    func convergesToAConstantLoad() async {
        await propertyCheck(
            input: Gen.double(in: 0...300), Gen.element(of: [10, 80]), Gen.double(in: 0...0.1),
            Gen.int(in: 0...1_000_000)
        ) { load, rate, sigma, seed in
            var filter = LevelRateFilter()
            let trace = Self.run(&filter, rate: rate!, seconds: 5, sigma: sigma, seed: UInt64(seed)) { _ in load }
            // 4.5 √P: a draw past it is one in 150 000, so a hundred draws a run do not fail on chance.
            let bound = 4.5 * filter.levelDeviation + 1e-9
            #expect(abs(trace.last!.level - load) <= bound, "level \(trace.last!.level) for \(load) ± \(bound)")
            #expect(filter.levelDeviation <= 0.25 * Self.d, "√P \(filter.levelDeviation) after 5 s")
        }
    }

    @Test("a jump larger than 4 σ restarts the level at the new load within the jump samples")
    func jumpRestartsWithinJumpSamples() async {
        await propertyCheck(
            input: Gen.double(in: 4...400), Gen.element(of: [10, 80]), Gen.double(in: 0.005...0.05),
            Gen.int(in: 0...1_000_000)
        ) { size, rate, sigma, seed in
            var filter = LevelRateFilter()
            let jump = max(size * sigma, 4 * Self.d)
            _ = Self.run(&filter, rate: rate!, seconds: 2, sigma: sigma, seed: UInt64(seed)) { _ in 50 }
            let restarts = filter.restarts
            let after = Self.run(
                &filter, rate: rate!, seconds: 1, sigma: sigma, seed: UInt64(seed) &+ 1, from: 2
            ) { _ in 50 + jump }
            let m = filter.tuning.jumpSamples
            #expect(filter.restarts > restarts, "no restart after a jump of \(jump) g")
            let reached = after.firstIndex { abs($0.level - (50 + jump)) <= 4 * sigma + Self.d }
            #expect(
                (reached ?? .max) < m, "the level reached the new load at sample \(reached.map(String.init) ?? "never")"
            )
        }
    }

    /// Today's chain notices such creep within 1.5 s (`CreepingLoadTests`); this estimator's rate
    /// needs 2.5 s for 0.5 d/s at 10 SPS, one of the figures it misses (docs/engine.md, "One
    /// estimator, on trial").
    static let creepNoticeTime = 2.5

    @Test("through the engine, creep of 0.5 d/s and faster is never stable once 2.5 s have shown it")
    func creepIsNeverStable() async {
        await propertyCheck(
            input: Gen.element(of: [0.5, 1, 2, 5]), Gen.element(of: [10, 80]), Gen.double(in: 0...1),
            Gen.int(in: 0...1_000_000)
        ) { speed, rate, share, seed in
            // The noise of CreepingLoadTests' ramps: where a 1 s slope can tell 1 d/s from 0.5.
            let ramp = CreepingLoadTests.Ramp(
                speed: speed!, rate: rate!, noise: share * (rate == 80 ? 0.015 : 0.005), seed: UInt64(seed))
            var configuration = ScaleConfiguration()
            configuration.filter.estimator = .levelRate(.init())
            let readings = (try? CreepingLoadTests.run(ramp, configuration: configuration)) ?? []
            let start = CreepingLoadTests.start
            let wrong = readings.filter {
                $0.stable && $0.seconds >= start + Self.creepNoticeTime && $0.seconds <= start + ramp.duration
            }
            #expect(!readings.isEmpty)
            #expect(wrong.isEmpty, "\(ramp): stable while creeping from \(wrong.first?.seconds ?? 0) s")
        }
    }

    @Test("a held outlier never moves the level, and the signal coming back drops it")
    func heldOutlierNeverMovesTheLevel() async {
        await propertyCheck(
            input: Gen.double(in: 5...50), Gen.element(of: [10, 80]), Gen.double(in: 0...0.03),
            Gen.int(in: 0...1_000_000)
        ) { spike, rate, sigma, seed in
            var filter = LevelRateFilter()
            let trace = Self.run(&filter, rate: rate!, seconds: 4, sigma: sigma, seed: UInt64(seed)) { _ in 100 }
            let before = trace.last!.level
            let time = UInt64(4e9)
            let level = filter.process(100 + spike, time: time, noise: sigma, division: Self.d)
            #expect(filter.isHolding && !filter.isSettled(division: Self.d, slopeLimit: 0.5 * Self.d))
            #expect(
                abs(level - before) <= 0.5 * Self.d, "a \(spike) g spike moved the level from \(before) to \(level)")
            _ = filter.process(100, time: time + UInt64(1e9) / UInt64(rate!), noise: sigma, division: Self.d)
            #expect(!filter.isHolding, "the spike is still held after the signal came back")
        }
    }
}
