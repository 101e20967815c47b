import PlumCore
import PlumHardware
import Testing

@testable import PlumBench

@Suite("Items benchmark: scripts and scoring")
struct ItemBenchmarkTests {
    @Test("a script's expected events add up to the load its workload leaves, and each owns a span of its own")
    func scriptAddsUp() {
        for mode in ItemDetection.Mode.allCases {
            let script = ItemScript(mode: mode, actions: 250, seed: 2027)
            let origin = MonotonicInstant(nanoseconds: 0)
            let load = ScriptedLoad(script.workload.events, origin: origin)
            var onPan = 0.0
            for (index, expected) in script.expected.enumerated() {
                onPan += expected.kind == .placed ? expected.grams : -expected.grams
                #expect(onPan <= 360 + 1e-6, "\(mode) event \(index) loads the pan past 360 g, near overload")
                // Once the span's plum has settled (1.5 s later), the truth is what the events say.
                let settled = origin.advanced(byNanoseconds: UInt64((expected.from + 3.4) * 1e9))
                #expect(abs(load.truth(at: settled) - onPan) < 1e-6, "\(mode) event \(index): \(expected)")
                #expect(expected.until > expected.from + 3.4)
                if index > 0 { #expect(script.expected[index - 1].until <= expected.from) }
                if mode == .oneAtATime, expected.kind == .placed { #expect(abs(onPan - expected.grams) < 1e-6) }
            }
            #expect(abs(onPan) < 1e-6, "\(mode): the pan ends empty")
            #expect(script.hands > 0 && script.rolls > 0)
        }
    }

    @Test("scoring counts a miss, a double, a spurious event and an error beyond 1 d")
    func scoring() throws {
        let script = ItemScript(mode: .oneAtATime, actions: 6, seed: 5)
        let expected = script.expected
        func event(_ index: Int, grams: Double, kind: ItemEvent.Kind? = nil) -> ItemEvent {
            ItemEvent(
                sensor: "s", sequence: index, item: index, kind: kind ?? expected[index].kind,
                divisions: Division.standard.round(grams).divisions, grossAfterDivisions: 0, division: .standard,
                time: 0)
        }
        // Event 0 right, event 1 missed, event 2 twice, event 3 0.15 g off, the rest right, and
        // one event after the last span.
        var reported: [(time: Double, event: ItemEvent)] = [(expected[0].from + 1, event(0, grams: expected[0].grams))]
        reported.append((expected[2].from + 1, event(2, grams: expected[2].grams)))
        reported.append((expected[2].from + 2, event(2, grams: expected[2].grams)))
        reported.append((expected[3].from + 1, event(3, grams: expected[3].grams + 0.15)))
        for index in 4..<expected.count {
            reported.append((expected[index].from + 1, event(index, grams: expected[index].grams)))
        }
        reported.append((expected.last!.until + 1, event(0, grams: 50)))
        let row = ItemBenchmark.score(
            script: script, reported: reported, mode: .oneAtATime, rate: .sps80, division: .standard)
        #expect(row.expected == expected.count)
        #expect(row.missed == 1)
        #expect(row.countedTwice == 1)
        #expect(row.spurious == 1)
        #expect(row.matched == expected.count - 1)
        #expect(row.withinOneD == expected.count - 2)
        #expect(row.worstError > 1 && row.worstError < 2)
    }

    @Test("at 10 SPS the first plum lands after the power-up zero and is counted, not zeroed away with the pan")
    func firstPlumAfterPowerUpZero() throws {
        for mode in [ItemDetection.Mode.oneAtATime, .accumulate] {
            let row = try ItemBenchmark(rate: .sps10, seed: 2026, actions: 3).run(mode: mode)
            #expect(row.ready < ItemBenchmark.firstPlacement, "the zero set at \(row.ready) s")
            #expect(row.missed == 0 && row.matched == row.expected, "\(mode): \(row.missed) missed")
        }
    }

    @Test("an edge script's events add up to its load, and a swap's span expects the old removed and the new placed")
    func edgeScriptAddsUp() {
        for mode in ItemDetection.Mode.allCases {
            let script = ItemScript.edges(mode: mode, actions: 120, seed: 2027)
            let load = ScriptedLoad(script.workload.events, origin: MonotonicInstant(nanoseconds: 0))
            // The true load: placed adds, removed (a lifted bowl included) takes off, a retraction
            // (the bowl tared) leaves the pan as it is.
            var onPan = 0.0
            for (index, expected) in script.expected.enumerated() {
                switch expected.kind {
                case .placed: onPan += expected.grams
                case .removed: onPan -= expected.grams
                case .retracted: break
                }
                // A swap's first half: its span's truth is the second's.
                if script.expected.dropFirst(index + 1).first?.from == expected.from { continue }
                let settled = MonotonicInstant(nanoseconds: UInt64((expected.from + 1.9) * 1e9))
                #expect(abs(load.truth(at: settled) - onPan) < 1e-6, "\(mode) event \(index): \(expected)")
                #expect(expected.until > expected.from + 1.9)
                #expect(onPan <= 360 + 1e-6)
            }
            #expect(abs(onPan) < 1e-6, "\(mode): the pan ends empty")
            #expect(script.bowls > 0 && script.restarts > 0)
            #expect(mode == .accumulate || script.swaps > 0)
            let swapSpans = Dictionary(grouping: script.expected, by: \.from).values.filter { $0.count == 2 }
            #expect(swapSpans.count == script.swaps, "\(mode)")
            for span in swapSpans { #expect(span.map(\.kind) == [.removed, .placed]) }
        }
    }

    @Test("swaps, a tared bowl and restarts at 10 SPS: nothing missed or doubled, numbers never restart")
    func edgesAtTenSPS() throws {
        for mode in ItemDetection.Mode.allCases {
            let row = try ItemBenchmark(rate: .sps10, seed: 2026, actions: 12).runEdges(mode: mode)
            #expect(
                row.bowls > 0 && row.restarts > 0,
                "\(mode): the seed gives \(row.bowls) bowls, \(row.restarts) restarts")
            #expect(row.missed == 0 && row.matched == row.expected, "\(mode): \(row.missed) missed")
            #expect(row.countedTwice == 0 && row.spurious == 0, "\(mode)")
            #expect(row.misnumbered == 0 && row.withinOneD == row.matched, "\(mode)")
        }
    }
}
