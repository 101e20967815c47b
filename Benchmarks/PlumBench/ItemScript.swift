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

    /// What the operator does besides loading the pan, at a time in seconds.
    package enum Command: Hashable, Sendable {
        /// A semi-automatic tare (the button, `?TARE`): pressed again each sample until the
        /// engine takes it, as an operator presses until the display shows net 0. On the empty
        /// pan after a container is lifted, the same press clears the tare.
        case tare
        /// The daemon restarts: the engine and the detector are built afresh, the zero and tare
        /// restored from what was saved and the detector resumed on the items that were on the
        /// pan, after `downtime` seconds without samples.
        case restart(downtime: Double)
    }

    package let workload: Workload
    package let expected: [Expected]
    /// The operator's commands, in time order; none in the classic script.
    package let commands: [(time: Double, command: Command)]
    /// Hand-resting episodes, which must make no item.
    package let hands: Int
    /// Rolling plums among the placements.
    package let rolls: Int
    /// Edge scripts (``edges(mode:actions:seed:start:)``): a fruit lifted and another set down
    /// through a near-empty dip, a bowl placed and tared with fruit weighed in it, and restarts
    /// of the daemon (with fruit on the pan in half of them).
    package private(set) var swaps = 0
    package private(set) var bowls = 0
    package private(set) var restarts = 0

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
        self.commands = []
        self.hands = hands
        self.rolls = rolls
    }

    private init(workload: Workload, expected: [Expected], commands: [(time: Double, command: Command)]) {
        self.workload = workload
        self.expected = expected
        self.commands = commands
        hands = 0
        rolls = 0
    }

    /// A seeded script of the edges a real scale meets, each action one of:
    /// - **a swap** (one-at-a-time only): a plum on the pan is lifted and another set down 0.15
    ///   to 0.5 s later, with no stable empty pan between: the first `removed` and the second
    ///   `placed` at its own weight, in the same span;
    /// - **a bowl** of 80 to 200 g set down (an item, until it is tared), tared (the item
    ///   `retracted`), one to three plums weighed in it net (placed, then lifted out), the bowl
    ///   lifted (a `removed` of its weight, no item) and the tare cleared on the empty pan;
    /// - **a restart** of the daemon for 1 to 2 s, with a plum on the pan in half of them:
    ///   nothing reported for it (not lost, not doubled), and the plum's removal after;
    /// - a plain plum, placed and (one-at-a-time) lifted.
    ///
    /// In `accumulate`, plums stay on the pan until the next would take it past 360 g, and a
    /// swap is a plain plum. Each span ends when the next action begins, and each is long
    /// enough to settle at 10 SPS.
    package static func edges(mode: ItemDetection.Mode, actions: Int, seed: UInt64, start: Double = 2.0) -> Self {
        var random = SeededRandom(seed: SeededRandom.scattered(seed &+ 0x5EED))
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
        }
        var events: [ScriptedLoad.Event] = []
        var expected: [Expected] = []
        var commands: [(time: Double, command: Command)] = []
        var (swaps, bowls, restarts) = (0, 0, 0)
        var t = start
        var load = 0.0
        var onPan: [Double] = []

        func ringing(to: Double, at: Double) {
            events.append(
                .ringingStep(
                    at: at, to: to, frequency: uniform(3...7), decay: uniform(0.05...0.15),
                    depth: uniform(0.2...0.7)))
        }
        /// Expects `kinds` in the span from `t`, then leaves the pan alone for a hold.
        func span(_ kinds: [(ItemEvent.Kind, Double)], hold: ClosedRange<Double> = ItemScript.hold) {
            let from = t
            t += uniform(hold)
            for (kind, grams) in kinds {
                expected.append(Expected(kind: kind, grams: grams, from: from, until: t, merged: false))
            }
        }
        func place(_ grams: Double) {
            load += grams
            ringing(to: load, at: t)
            span([(.placed, grams)])
        }
        func lift(_ grams: Double) {
            load -= grams
            ringing(to: load, at: t)
            span([(.removed, grams)])
        }
        func makeRoom(for grams: Double) {
            guard mode == .accumulate, load + grams > 360 else { return }
            while let last = onPan.popLast() { lift(last) }
        }

        for _ in 0..<actions {
            let action = random.unit()
            let plum = uniform(25...110)
            if action < 0.3, mode == .oneAtATime {
                swaps += 1
                place(plum)
                // Lifted by hand in a tenth of a second (no ringing: the hand damps the pan),
                // the next set down 0.15 to 0.5 s later: at 10 SPS one to five samples of the
                // empty pan, which the filter's average never gets near.
                let next = uniform(25...110)
                events.append(.ramp(at: t, to: 0, duration: 0.1))
                load = next
                ringing(to: next, at: t + 0.1 + uniform(0.15...0.5))
                span([(.removed, plum), (.placed, next)])
                lift(next)
            } else if action < 0.55 {
                bowls += 1
                let bowl = uniform(80...200)
                let pieces = 1 + Int(random.unit() * 3)
                while let last = onPan.popLast() { lift(last) }
                place(bowl)
                commands.append((t, .tare))
                span([(.retracted, bowl)], hold: 2.0...3.0)
                for _ in 0..<pieces {
                    let piece = uniform(25...min(110, 360 - bowl))
                    place(piece)
                    lift(piece)
                }
                lift(bowl)
                commands.append((t, .tare))
                span([], hold: 2.0...3.0)
            } else if action < 0.8 {
                restarts += 1
                let withFruit = random.unit() < 0.5
                if withFruit {
                    makeRoom(for: plum)
                    place(plum)
                    onPan.append(plum)
                }
                let downtime = uniform(1...2)
                commands.append((t, .restart(downtime: downtime)))
                // The new engine waits out its power-up before it restores the zero and tare
                // on a stable load: 3.7 s at 10 SPS (the table's "zero set s").
                span([], hold: (downtime + 6)...(downtime + 7))
                if withFruit, mode == .oneAtATime { lift(onPan.removeLast()) }
            } else {
                makeRoom(for: plum)
                place(plum)
                if mode == .oneAtATime { lift(plum) } else { onPan.append(plum) }
            }
        }
        while let last = onPan.popLast() { lift(last) }
        var script = ItemScript(
            workload: Workload(name: "items-edges-\(mode.rawValue)", events: events, duration: t),
            expected: expected, commands: commands)
        (script.swaps, script.bowls, script.restarts) = (swaps, bowls, restarts)
        return script
    }
}
