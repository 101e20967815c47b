import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// Sessions over seeded scripts of placements, swaps, stacks and tares, through the real engine
/// with the cell's noise: every fruit counted once, the bowl never, each at its own weight.
@Suite("A session counts the fruit, not the bowl", .ownThreads)
struct ItemSessionPropertyTests {
    /// A script: the loads on the pan over time, when to tare, and the fruit placed in order.
    struct Script: CustomStringConvertible {
        /// (from seconds, grams on the pan) in time order, each load held until the next.
        var loads: [(at: Double, grams: Double)] = [(0, 0)]
        var tares: [Double] = []
        var fruit: [Double] = []
        var end = 0.0
        var steps: [String] = []
        var description: String { steps.joined(separator: ", ") }

        mutating func hold(_ grams: Double, for seconds: Double) {
            loads.append((end, grams))
            end += seconds
        }

        /// The load at `t` seconds.
        func load(at t: Double) -> Double { loads.last { $0.at <= t }?.grams ?? 0 }
    }

    /// A script from `seed`: perhaps a bowl tared first, then one to five fruit episodes, each a
    /// fruit placed and then lifted, swapped for another within 0.1 s, or stacked on. The bowl
    /// and two fruit stay under Max (385 g): 120 + 2 × 120 g at most.
    static func script(seed: UInt64) -> Script {
        var random = SeededNoise(seed: seed)
        func grams(_ range: ClosedRange<Double>) -> Double {
            ((range.lowerBound + random.uniform() * (range.upperBound - range.lowerBound)) * 1000).rounded() / 1000
        }
        var script = Script()
        script.hold(0, for: 1)
        var base = 0.0
        if random.uniform() < 0.5 {
            base = grams(60...120)
            script.steps.append("bowl \(base) g tared")
            script.hold(base, for: 2)
            script.tares.append(script.end - 0.5)
            script.hold(base, for: 1.5)
        }
        for _ in 0..<(1 + Int(random.uniform() * 5)) {
            let first = grams(20...120)
            script.fruit.append(first)
            script.hold(base + first, for: 2)
            switch Int(random.uniform() * 3) {
            case 0:
                script.steps.append("\(first) g on and off")
            case 1:
                let second = grams(20...120)
                script.fruit.append(second)
                script.steps.append("\(first) g swapped for \(second) g")
                script.hold(base, for: 0.1)
                script.hold(base + second, for: 2)
            default:
                let second = grams(20...120)
                script.fruit.append(second)
                script.steps.append("\(second) g stacked on \(first) g")
                script.hold(base + first + second, for: 2)
            }
            script.hold(base, for: 2)
        }
        return script
    }

    /// Plays `script` at 80 SPS with noise σ = 0.02 g: the session it leaves and its events.
    static func play(_ script: Script, seed: UInt64) throws -> (WeighingSession, [ItemEvent]) {
        var engine = try Fixtures.engine()
        var detector = try ItemDetector(sensor: "left", division: .standard)
        var session = try WeighingSession(name: "crate", division: .standard, startedAt: "s")
        var noise = SeededNoise(seed: seed &+ 1)
        var events: [ItemEvent] = []
        var tares = script.tares[...]
        for index in 0..<Int(script.end * 80) {
            let t = Double(index) / 80
            let grams = script.load(at: t) + noise.gaussian(sigma: 0.02)
            let reading = engine.process(
                EngineInput(signal: Fixtures.signal(grams: grams), time: UInt64(index) * Fixtures.nanosecondsPerSample))
            events += detector.observe(reading)
            if let due = tares.first, t >= due, reading.isStable {
                tares.removeFirst()
                _ = try engine.tareNow().get()
                events += detector.tare(
                    time: reading.time, grossDivisions: Division.standard.round(reading.gross ?? 0).divisions)
            }
        }
        for event in events { _ = try session.record(event, at: "t").get() }
        return (session, events)
    }

    @Test("over seeded scripts the session holds every fruit placed, each within ½ d plus the filter's error")
    func countsTheFruit() async {
        await propertyCheck(input: Gen.int(in: 0...1_000_000)) { seed in
            let script = Self.script(seed: UInt64(seed))
            let (session, events) = try Self.play(script, seed: UInt64(seed))
            let told = events.map { "\($0.kind) \($0.item.map(String.init) ?? "-") \($0.weightText) \($0.flags.names)" }
            #expect(session.count == script.fruit.count, "\(script): \(told)")
            guard session.count == script.fruit.count else { return }
            // Each item is the difference of two filtered levels rounded once: ½ d of rounding,
            // and each level known to ¼ d (the engine's precision before it acts): 1 d in all.
            for (item, truth) in zip(session.items, script.fruit) {
                let weight = Double(item.divisions) / 10
                #expect(abs(weight - truth) <= 0.05 + 2 * 0.025 + 1e-9, "\(weight) g for \(truth) g: \(script)")
            }
        }
    }
}
