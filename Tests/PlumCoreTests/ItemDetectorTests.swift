import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// The item detector on its own inputs: synthetic stable and moving displays with a known truth.
@Suite("Item detection on synthetic displays", .ownThreads)
struct ItemDetectorTests {
    /// One action on the pan: the display moves for `motion` readings, then holds `step`
    /// divisions from where it was (0: a hand that came and went).
    struct Action: Sendable, CustomStringConvertible {
        var step: Int64
        var motion: Int
        var hold: Int
        var flicker: Bool
        var description: String { "step \(step) d, \(motion) moving, \(hold) held, flicker \(flicker)" }
    }

    static let period: UInt64 = 12_500_000  // 80 SPS
    static let n: Int64 = 10

    /// Steps of N d or more either way, or 0 (a hand that came and went).
    static let action = zip(
        Gen.int(in: 0...3), Gen.int(in: 10...2_000), Gen.bool, Gen.int(in: 0...60), Gen.int(in: 21...60), Gen.bool
    ).map { choice, size, up, motion, hold, flicker in
        Action(step: choice == 0 ? 0 : Int64(up ? size : -size), motion: motion, hold: hold, flicker: flicker)
    }

    /// Plays `actions` to a detector: the level each holds, the filtered gross wandering up to
    /// 0.45 d above it when asked, and between them wobbling anywhere around the two levels.
    static func play(_ actions: [Action], mode: ItemDetection.Mode, seed: UInt64 = 1) throws -> [ItemEvent] {
        var detector = try ItemDetector(
            sensor: "pan", division: .standard, settings: ItemDetection(mode: mode, minimumStep: n))
        var noise = SeededNoise(seed: seed)
        var time: UInt64 = 0
        var level: Int64 = 0
        var events: [ItemEvent] = []
        func show(_ value: Int64, stable: Bool, flicker: Double = 0) {
            let grams = (Double(value) + flicker) / 10
            events += detector.observe(gross: grams, stable: stable, time: time)
            time += period
        }
        for _ in 0..<30 { show(level, stable: true) }
        for action in actions {
            let target = level + action.step
            for _ in 0..<action.motion {
                let low = min(level, target) - 300
                let span = Double(abs(action.step) + 600)
                show(low + Int64(noise.uniform() * span), stable: false)
            }
            level = target
            for _ in 0..<action.hold {
                show(level, stable: true, flicker: action.flicker ? 0.45 * noise.uniform() : 0)
            }
        }
        return events
    }

    /// In `accumulate`: one-at-a-time weighs loads from the empty pan instead, and a wobble that
    /// passes near it makes the next rise a swap (`ItemEngineTests`, the session property).
    @Test("accumulate: every step of N d or more is one event of the right kind and weight; a hand makes none")
    func everyStepOnce() async {
        await propertyCheck(input: Self.action.array(of: 1...25), Gen.int(in: 0...1_000_000)) { actions, seed in
            let events = try Self.play(actions, mode: .accumulate, seed: UInt64(seed))
            let steps = actions.filter { $0.step != 0 }
            #expect(events.count == steps.count, "\(events.count) events for \(steps.count) steps: \(actions)")
            for (event, action) in zip(events, steps) {
                #expect(event.kind == (action.step > 0 ? .placed : .removed))
                #expect(event.divisions == abs(action.step), "\(event.divisions) d for \(action)")
            }
            #expect(events.map(\.sequence) == events.indices.map { $0 + 1 })
            let placed = events.filter { $0.kind == .placed }
            #expect(placed.map(\.item) == placed.indices.map { $0 + 1 })
        }
    }

    @Test("a display that never holds still for the confirmation time confirms nothing")
    func briefStableIsNoLevel() throws {
        // 20 readings (250 ms at 80 SPS) are needed; 19 stable readings at a time never are.
        var detector = try ItemDetector(sensor: "pan", division: .standard)
        var time: UInt64 = 0
        var events: [ItemEvent] = []
        for _ in 0..<40 {
            _ = detector.observe(gross: 0.01, stable: true, time: time)
            time += Self.period
        }
        for round in 0..<10 {
            for _ in 0..<19 {
                events += detector.observe(gross: Double(50 + round * 10), stable: true, time: time)
                time += Self.period
            }
            _ = detector.observe(gross: 20, stable: false, time: time)
            time += Self.period
        }
        #expect(events.isEmpty)
        #expect(detector.level == 0.01)
    }

    @Test("one-at-a-time: the fall to the empty pan ends every item on it; a second fruit on top is stacked")
    func oneAtATimeEndsItems() throws {
        let plan: [Action] = [
            Action(step: 873, motion: 10, hold: 30, flicker: false),
            Action(step: -873, motion: 10, hold: 30, flicker: false),
            Action(step: 500, motion: 10, hold: 30, flicker: false),
            Action(step: 300, motion: 10, hold: 30, flicker: false),
            Action(step: -800, motion: 10, hold: 30, flicker: false)
        ]
        let events = try Self.play(plan, mode: .oneAtATime)
        // The fall to the empty pan ends both items on it, the latest first, each by its own weight.
        #expect(events.map(\.kind) == [.placed, .removed, .placed, .placed, .removed, .removed])
        #expect(events.map(\.item) == [1, 1, 2, 3, 3, 2])
        #expect(events[3].flags == .stacked)
        #expect(events.map(\.divisions) == [873, 873, 500, 300, 300, 500])
        #expect(events.map(\.grossAfterDivisions) == [873, 0, 500, 800, 0, 0])
        #expect(events[0].weightText == "87.3 g")
    }

    @Test("accumulate: each rise is an item, a fall a removal of the drop with no item number")
    func accumulateDrops() throws {
        let plan: [Action] = [
            Action(step: 400, motion: 5, hold: 30, flicker: false),
            Action(step: 650, motion: 5, hold: 30, flicker: false),
            Action(step: -400, motion: 5, hold: 30, flicker: false),
            Action(step: -650, motion: 5, hold: 30, flicker: false)
        ]
        let events = try Self.play(plan, mode: .accumulate)
        #expect(events.map(\.kind) == [.placed, .placed, .removed, .removed])
        #expect(events.map(\.item) == [1, 2, nil, nil])
        #expect(events.allSatisfy { $0.flags.isEmpty })
        #expect(events.map(\.grossAfter) == [40, 105, 65, 0])
    }

    @Test("a stop on the way flags the step merged; an overshoot beyond the end does not")
    func stopsOnTheWay() throws {
        var detector = try ItemDetector(
            sensor: "pan", division: .standard, settings: ItemDetection(mode: .accumulate))
        var time: UInt64 = 0
        func show(_ value: Int64, stable: Bool, count: Int) -> [ItemEvent] {
            (0..<count).flatMap { _ in
                defer { time += Self.period }
                return detector.observe(gross: Double(value) / 10, stable: stable, time: time)
            }
        }
        _ = show(0, stable: true, count: 30)
        // The first plum is stable for 200 ms, too short to confirm; the second lands: one
        // item, merged.
        _ = show(300, stable: false, count: 5)
        _ = show(300, stable: true, count: 16)
        _ = show(500, stable: false, count: 5)
        let merged = show(750, stable: true, count: 30)
        // A press past the end, briefly stable, then the level: not merged.
        _ = show(1_400, stable: true, count: 16)
        _ = show(1_300, stable: false, count: 5)
        let pressed = show(1_200, stable: true, count: 30)
        // Still for as long without the engine calling it stable: a wobble, no stop.
        _ = show(1_500, stable: false, count: 30)
        let wobbled = show(1_900, stable: true, count: 30)
        #expect(merged.map(\.flags) == [.merged])
        #expect(merged.first?.divisions == 750)
        #expect(pressed.map(\.flags) == [[]])
        #expect(pressed.first?.divisions == 450)
        #expect(wobbled.map(\.flags) == [[]])
    }

    @Test("settings that cannot tell an item from flicker are refused, saying what to set")
    func refusesTinyStep() {
        #expect(throws: Refusal.self) {
            try ItemDetector(sensor: "pan", division: .standard, settings: ItemDetection(minimumStep: 1))
        }
        let refusal = ItemDetection(minimumStep: 1).validate()
        guard case .failure(let why) = refusal else {
            Issue.record("a 1 d step was accepted")
            return
        }
        #expect(why.description.contains("min_step_divisions"))
    }

    @Test("below Min no item: a 1.5 g leaf with Min 2.0 g is none and says so; the plum on it weighs its own")
    func belowMinimumIsNoItem() throws {
        // Min 20 d of 0.1 g (R 76-1 table 3, class III): 2.0 g.
        var detector = try ItemDetector(sensor: "pan", division: .standard, minimumWeight: 20)
        var time: UInt64 = 0
        var events: [ItemEvent] = []
        func hold(_ grams: Double) {
            for _ in 0..<40 {
                events += detector.observe(gross: grams, stable: true, time: time)
                time += Self.period
            }
            events += detector.observe(gross: grams, stable: false, time: time)
        }
        hold(0)
        hold(1.5)
        #expect(events.isEmpty, "\(events)")
        #expect(detector.ignoredBelowMinimum == 15)
        hold(1.5 + 50)
        hold(1.5)
        #expect(events.map(\.kind) == [.placed, .removed])
        #expect(events.map(\.divisions) == [500, 500], "the plum from the leaf's level")
        #expect(detector.ignoredBelowMinimum == nil)
        hold(1.5 + 2)
        #expect(events.map(\.divisions).last == 20, "exactly Min is an item")
        // Swapped within a tenth of a second for a 1.0 g leaf: the 2.0 g item is removed, the
        // leaf, below Min, is none.
        hold(1.5 + 2)
        events += detector.observe(gross: 0.1, stable: false, time: time)
        hold(1.5 + 1)
        #expect(events.suffix(1).map(\.kind) == [.removed], "\(events)")
        #expect(detector.ignoredBelowMinimum == 10 && detector.itemsOnPan.isEmpty)
    }
}
