package import PlumCore
internal import PlumSimulation

/// A seeded sequence of fruit placed and removed, as a load script for the chip model, with the
/// item events a detector should report: the truth the items benchmark is measured against.
///
/// Every action is followed by a hold long enough for the pan to settle at 10 SPS too, so each
/// expected event must be reported (no "never settled" excuse). Four kinds of action are mixed:
/// a plum set down (the pan rings at 3–7 Hz), a plum rolling to rest (a slow 1–2 Hz wobble that
/// dies away over a second or two), two plums within 0.05–0.2 s (one item of their sum, which
/// should be flagged merged), and a hand resting on the pan (the load drifting up and down for
/// 1.6 s without stopping, then the hand gone: no item).
package struct ItemScript: Sendable {
    /// One event the detector should report.
    package struct Expected: Hashable, Sendable {
        package var kind: ItemEvent.Kind
        /// The true weight of the step in grams.
        package var grams: Double
        /// Seconds: when the step begins.
        package var from: Double
        /// Seconds: by when it must have been reported (the next action begins).
        package var until: Double
        /// Two plums within the settling time: one item of their sum, to be flagged merged.
        package var merged: Bool
    }

    package let workload: Workload
    package let expected: [Expected]
    /// Hand-resting episodes, which must make no item.
    package let hands: Int
    /// Rolling plums among the placements.
    package let rolls: Int

    /// Seconds the pan is left alone after each action: the 10 SPS engine with a slow roll needs
    /// about 2.5 s to be stable and the detector 0.25 s more to confirm.
    static let hold = 3.5...5.0

    /// Generates `actions` placements (and the removals they need) for `mode` from `seed`, the
    /// first at `start` seconds: after the engine's power-up zero, as an operator waits for the
    /// display to show 0 before weighing (``ItemBenchmark/firstPlacement``).
    package init(mode: ItemDetection.Mode, actions: Int, seed: UInt64, start: Double = 2.0) {
        var random = SeededRandom(seed: SeededRandom.scattered(seed))
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
        }
        var events: [ScriptedLoad.Event] = []
        var expected: [Expected] = []
        var hands = 0
        var rolls = 0
        var t = start
        var load = 0.0
        var onPan: [Double] = []

        /// A step to `to` at `t` that rings like a plum set down or lifted.
        func ringing(to: Double, at: Double) -> ScriptedLoad.Event {
            .ringingStep(
                at: at, to: to, frequency: uniform(3...7), decay: uniform(0.05...0.15), depth: uniform(0.2...0.7))
        }
        func finish(_ kind: ItemEvent.Kind, grams: Double, from: Double, merged: Bool = false) {
            t = from + uniform(Self.hold)
            expected.append(Expected(kind: kind, grams: grams, from: from, until: t, merged: merged))
        }
        func remove(_ grams: Double) {
            load -= grams
            events.append(ringing(to: load, at: t))
            finish(.removed, grams: grams, from: t)
        }

        for _ in 0..<actions {
            let action = random.unit()
            if action < 0.1 {
                // A hand resting on the pan: three drifts and away, always moving (≥ 25 g/s).
                hands += 1
                let start = t
                for (target, seconds) in [(uniform(20...150), 0.4), (uniform(20...150), 0.5), (uniform(20...150), 0.4)]
                {
                    events.append(.ramp(at: t, to: load + target, duration: seconds))
                    t += seconds
                }
                events.append(.ramp(at: t, to: load, duration: 0.3))
                t = start + 1.6 + uniform(Self.hold)
                continue
            }
            let merged = action >= 0.1 && action < 0.25
            let first = uniform(25...110)
            let second = merged ? uniform(25...110) : 0
            let weight = first + second
            if mode == .accumulate, load + weight > 360 {
                // The pan is full: lift one plum, when that makes room, or empty it, then place.
                // (Past 385 g the pan is overloaded and no level can be confirmed.)
                let index = max(0, min(onPan.count - 1, Int(random.unit() * Double(onPan.count))))
                if random.unit() < 0.5, !onPan.isEmpty, load - onPan[index] + weight <= 360 {
                    remove(onPan.remove(at: index))
                } else {
                    remove(load)
                    onPan.removeAll()
                }
            }
            let from = t
            load += first
            if action >= 0.25 && action < 0.45 {
                rolls += 1
                events.append(
                    .ringingStep(
                        at: t, to: load, frequency: uniform(1...2), decay: uniform(0.2...0.3), depth: uniform(0.3...0.6)
                    ))
            } else {
                events.append(ringing(to: load, at: t))
            }
            if merged {
                load += second
                events.append(ringing(to: load, at: t + uniform(0.05...0.2)))
            }
            finish(.placed, grams: weight, from: from, merged: merged)
            if mode == .accumulate {
                onPan.append(weight)
            } else {
                remove(weight)
            }
        }
        if load > 1 { remove(load) }
        workload = Workload(name: "items-\(mode.rawValue)", events: events, duration: t)
        self.expected = expected
        self.hands = hands
        self.rolls = rolls
    }
}
