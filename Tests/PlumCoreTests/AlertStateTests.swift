import PlumCore
import PlumTestThreads
import PropertyBased
import Testing

@Suite("An alert rule's state machine: threshold, hysteresis, hold and invalid readings", .ownThreads)
struct AlertStateTests {
    static let second: UInt64 = 1_000_000_000
    static let fruitLow = AlertRule(name: "fruit-low", sensor: "bowl", condition: .below(grams: 100), hysteresis: 20)

    /// Feeds `(grams, seconds)` and returns the changes, one per reading.
    static func run(_ rule: AlertRule, _ readings: [(Double?, Double)]) -> [AlertState.Change?] {
        var state = AlertState(rule: rule)
        return readings.map { grams, seconds in state.update(grams: grams, time: UInt64(seconds * 1e9)) }
    }

    @Test("below: raised under the threshold, kept inside the hysteresis band, cleared past threshold + hysteresis")
    func belowWithHysteresis() {
        let changes = Self.run(Self.fruitLow, [(150, 0), (99, 1), (110, 2), (120, 3), (120.5, 4), (101, 5), (99.9, 6)])
        #expect(
            changes == [nil, .raised(grams: 99), nil, nil, .cleared(grams: 120.5), nil, .raised(grams: 99.9)],
            "100 g below with 20 g hysteresis: raised at 99, held to 120, cleared at 120.5; got \(changes)")
    }

    @Test("above: raised over the threshold, cleared only under threshold − hysteresis")
    func aboveWithHysteresis() {
        let rule = AlertRule(name: "full", sensor: "bowl", condition: .above(grams: 2_000), hysteresis: 100)
        let changes = Self.run(rule, [(1_000, 0), (2_000, 1), (2_001, 2), (1_950, 3), (1_900, 4), (1_899, 5)])
        #expect(
            changes == [nil, nil, .raised(grams: 2_001), nil, nil, .cleared(grams: 1_899)],
            "2000 g above with 100 g hysteresis: 2000 itself is not above; cleared under 1900; got \(changes)")
    }

    @Test("hold: raised only after the condition held for the whole hold on valid readings; an invalid one restarts it")
    func hold() {
        var rule = Self.fruitLow
        rule.holdNanoseconds = Self.second
        let changes = Self.run(
            rule,
            [
                (50, 0), (50, 0.5), (nil, 0.7), (50, 0.9), (50, 1.5), (150, 1.8), (50, 1.85), (50, 2.8), (50, 2.85)
            ])
        // Started at 0, restarted at 0.9 by the invalid reading, ended at 1.8 by 150 g, started
        // again at 1.85: raised at 2.85, one second later.
        #expect(changes == [nil, nil, nil, nil, nil, nil, nil, nil, .raised(grams: 50)], "got \(changes)")
    }

    @Test("an invalid reading (no net weight) neither raises nor clears")
    func invalidKeepsState() {
        let changes = Self.run(Self.fruitLow, [(nil, 0), (10, 1), (nil, 2), (nil, 3), (500, 4), (nil, 5), (.nan, 6)])
        #expect(changes == [nil, .raised(grams: 10), nil, nil, .cleared(grams: 500), nil, nil], "got \(changes)")
    }

    @Test("on random weights, changes alternate and happen only past the threshold or past it plus the hysteresis")
    func randomWalksObeyTheBand() async {
        await propertyCheck(
            input: Gen.double(in: 0...300).array(of: 1...200), Gen.double(in: 0...50), Gen.double(in: 0...2)
        ) { weights, hysteresis, holdSeconds in
            let rule = AlertRule(
                name: "low", sensor: "bowl", condition: .below(grams: 150), hysteresis: hysteresis,
                holdNanoseconds: UInt64(holdSeconds * 1e9))
            var state = AlertState(rule: rule)
            var active = false
            var belowSince: Double?
            for (index, grams) in weights.enumerated() {
                let seconds = Double(index) * 0.1
                let change = state.update(grams: grams, time: UInt64((seconds * 1e9).rounded()))
                // The model, worked out independently: when must it change?
                if active {
                    let clears = grams > 150 + hysteresis
                    #expect(
                        (change == .cleared(grams: grams)) == clears,
                        "\(grams) g after raised: \(String(describing: change))")
                    if clears {
                        active = false
                        belowSince = nil
                    }
                } else if grams < 150 {
                    let since = belowSince ?? seconds
                    belowSince = since
                    let raises =
                        UInt64(((seconds) * 1e9).rounded()) - UInt64((since * 1e9).rounded())
                        >= UInt64(holdSeconds * 1e9)
                    #expect(
                        (change == .raised(grams: grams)) == raises,
                        "\(grams) g at \(seconds) s: \(String(describing: change))")
                    if raises {
                        active = true
                        belowSince = nil
                    }
                } else {
                    belowSince = nil
                    #expect(change == nil, "\(grams) g is not below 150 g, and nothing was raised")
                }
                #expect(state.isActive == active, "the state says \(state.isActive), the model \(active)")
            }
        }
    }

    @Test("a weight hovering around the threshold inside the hysteresis band never flaps")
    func noFlapping() async {
        await propertyCheck(
            input: Gen.double(in: 1...100), Gen.double(in: -1...1).array(of: 1...300)
        ) { hysteresis, wobble in
            var state = AlertState(
                rule: AlertRule(
                    name: "low", sensor: "bowl", condition: .below(grams: 150), hysteresis: hysteresis))
            #expect(state.update(grams: 149, time: 0) == .raised(grams: 149), "149 g raises a below-150 alert")
            for (index, unit) in wobble.enumerated() {
                // Anywhere from threshold − hysteresis to threshold + hysteresis, both ends in.
                let grams = 150 + unit * hysteresis
                let change = state.update(grams: grams, time: UInt64(index + 1) * 12_500_000)
                #expect(
                    change == nil,
                    "\(grams) g is inside the band 150 ± \(hysteresis) g, yet changed: \(String(describing: change))")
            }
        }
    }
}
