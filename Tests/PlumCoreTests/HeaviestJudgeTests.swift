import Testing

@testable import PlumCore

@Suite("The heaviest pan does not flicker: judged on stable displays, a tie within one division")
struct HeaviestJudgeTests {
    /// A reading of `net` grams as the engine makes it: displayed to d = 0.1 g.
    static func reading(
        _ sensor: String, net: Double, stable: Bool = true, overload: Bool = false, calibrated: Bool = true
    ) -> Reading {
        let d = Division.standard
        let rounded = d.round(net)
        return Reading(
            sensor: sensor, time: 0, signal: 0, gross: net, tare: 0, net: net,
            display: overload ? .overload : .grams(divisions: rounded.divisions, value: rounded.grams), division: d,
            capacity: 385, percentOfCapacity: net / 3.85, isStable: stable, isOverload: overload, isUnderload: false,
            isCentreOfZero: false, isLoaded: overload || net >= 20 * d.grams,
            calibration: calibrated ? Fixtures.linearCalibration() : nil,
            uncalibratedReason: calibrated ? nil : "not calibrated", cues: [], calibrationStep: nil, capturedPoint: nil)
    }

    @Test("pans 0.10 g apart with 0.03 g of noise at 80 SPS: one steady judgement, a tie, for 10 s")
    func closePansDoNotFlicker() {
        var judge = HeaviestJudge(order: ["left", "right"])
        var noise = SeededNoise(seed: 6)
        var judgements: [ScaleGroup.Heaviest] = []
        // The displays hold 50.0 and 50.1 g (the engine's display hysteresis keeps them there);
        // the unrounded nets wander by the noise, as the instant judgement saw them.
        for _ in 0..<800 {
            for (name, net) in [("left", 50.02), ("right", 50.12)] {
                var reading = Self.reading(name, net: net + noise.gaussian(sigma: 0.03))
                let shown = name == "left" ? 500 : 501
                reading.display = .grams(divisions: Int64(shown), value: Double(shown) / 10)
                judgements.append(judge.observe(name, reading))
            }
        }
        // From the moment both pans have been seen.
        let settled = judgements.dropFirst()
        let changes = zip(settled, settled.dropFirst()).filter { $0 != $1 }.count
        #expect(changes == 0, "\(changes) changes of the heaviest in 10 s")
        #expect(judge.heaviest == .tie(["left", "right"]), "50.0 and 50.1 g are a tie: \(judge.heaviest)")
    }

    @Test("the leader changes only when another pan is past it by more than one division")
    func marginOfOneDivision() {
        var judge = HeaviestJudge(order: ["left", "right"])
        judge.observe("left", Self.reading("left", net: 60))
        judge.observe("right", Self.reading("right", net: 50))
        #expect(judge.heaviest == .sensor("left"))
        judge.observe("right", Self.reading("right", net: 60.1))
        #expect(judge.heaviest == .tie(["left", "right"]), "0.1 g (1 d) past is not past the margin")
        judge.observe("right", Self.reading("right", net: 60.2))
        #expect(judge.heaviest == .sensor("right"), "0.2 g past: right leads")
    }

    @Test("a moving pan keeps its last settled weight; an overloaded one counts at once; an empty one not at all")
    func movingOverloadEmpty() {
        var judge = HeaviestJudge(order: ["left", "right"])
        judge.observe("left", Self.reading("left", net: 80))
        judge.observe("right", Self.reading("right", net: 70))
        judge.observe("left", Self.reading("left", net: 40, stable: false))
        #expect(judge.heaviest == .sensor("left"), "a plum being lifted is not judged until it settles")
        judge.observe("left", Self.reading("left", net: 0.4))
        #expect(judge.heaviest == .sensor("right"), "an empty pan does not count")
        judge.observe("left", Self.reading("left", net: 400, stable: false, overload: true))
        #expect(judge.heaviest == .sensor("left"), "an overload counts at once, moving or not")
    }

    @Test("a pan still settling after the start is judged on what it shows, not passed over for a settled lighter one")
    func settlingAtStart() {
        var judge = HeaviestJudge(order: ["left", "right"])
        judge.observe("right", Self.reading("right", net: 60))
        judge.observe("left", Self.reading("left", net: 119.6, stable: false))
        #expect(judge.heaviest == .sensor("left"), "120 g settling outweighs a settled 60 g")
        judge.observe("left", Self.reading("left", net: 120))
        judge.observe("left", Self.reading("left", net: 30, stable: false))
        #expect(judge.heaviest == .sensor("left"), "once settled, a moving pan keeps its settled weight")
    }

    @Test("a pan whose sensor delivers no samples leaves the judgement at once")
    func outageLeaves() {
        var judge = HeaviestJudge(order: ["left", "right"])
        judge.observe("left", Self.reading("left", net: 152.3))
        judge.observe("right", Self.reading("right", net: 30))
        #expect(judge.heaviest == .sensor("left"))
        judge.observe("left", nil)
        #expect(judge.heaviest == .sensor("right"), "the pulled wire's 152.3 g is not the heaviest any more")
        judge.observe("right", nil)
        #expect(judge.heaviest == .none)
    }
}
