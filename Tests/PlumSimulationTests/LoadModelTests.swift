import PlumHardware
import PlumSimulation
import Testing

@Suite("Plum load model, step load and load cell")
struct LoadModelTests {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    func instant(_ seconds: Double) -> MonotonicInstant {
        start.advanced(byNanoseconds: UInt64(seconds * 1e9))
    }

    @Test("The same seed gives the same plums at the same times; another seed gives others")
    func deterministic() {
        let a = PlumLoadModel(seed: 11, start: start)
        let b = PlumLoadModel(seed: 11, start: start)
        let c = PlumLoadModel(seed: 12, start: start)
        #expect(a.placements == b.placements)
        #expect(a.placements != c.placements)
        let times = stride(from: 0.0, to: 600, by: 0.037).map(instant)
        #expect(times.map(a.grams(at:)) == times.map(b.grams(at:)))
    }

    @Test(
        "Plums weigh 60–120 g, visits do not overlap and fill the configured duration",
        arguments: [1, 2, 3, 99] as [UInt64])
    func plumWeights(seed: UInt64) {
        let model = PlumLoadModel(seed: seed, start: start)
        #expect(model.placements.count > 200)
        #expect(model.placements.allSatisfy { (60...120).contains($0.grams) && $0.arrival < $0.departure })
        #expect(zip(model.placements, model.placements.dropFirst()).allSatisfy { $0.departure < $1.arrival })
        let weights = model.placements.map(\.grams)
        // Spread over the range, not clustered.
        #expect(weights.min()! < 70 && weights.max()! > 110)
    }

    @Test("A placement rings at a few hertz and settles on the plum's weight within a second; removal returns to empty")
    func ringingSettles() throws {
        let model = PlumLoadModel(seed: 5, start: start)
        let plum = try #require(model.placements.first)
        let arrival = Double(plum.arrival.nanoseconds(since: start)) / 1e9
        let departure = Double(plum.departure.nanoseconds(since: start)) / 1e9
        #expect(model.grams(at: instant(arrival - 0.5)) == 0)
        // Underdamped: overshoot half a ringing period (125 ms at 4 Hz) after the placement.
        #expect(model.grams(at: instant(arrival + 0.125)) > plum.grams * 1.1)
        #expect(abs(model.grams(at: instant(arrival + 1.0)) - plum.grams) < 0.01)
        #expect(abs(model.grams(at: instant(departure + 1.0))) < 0.01)
        #expect(model.grams(at: instant(departure + 0.125)) < -0.1 * plum.grams)
    }

    @Test("Degenerate traffic settings give a finite schedule rather than a hang or a trap")
    func degenerateConfiguration() {
        var configuration = PlumLoadModel.Configuration()
        configuration.gapSeconds = 0...0
        configuration.dwellSeconds = -5 ... -1
        configuration.duration = .seconds(1)
        let model = PlumLoadModel(seed: 1, start: start, configuration: configuration)
        #expect(model.placements.count <= 500)
        #expect(model.placements.allSatisfy { $0.arrival < $0.departure })
    }

    @Test("A step load changes once, at its instant")
    func stepLoad() {
        let step = StepLoad(before: 10, after: 110, at: instant(2))
        #expect(step.grams(at: instant(1.999)) == 10)
        #expect(step.grams(at: instant(2)) == 110)
    }

    @Test("Creep grows towards its fraction of the load and recovers after removal; drift moves the zero slowly")
    func creepAndDrift() {
        var cell = LoadCell(zeroDrift: 0)
        let volts = { (grams: Double, seconds: Double) in
            cell.outputVolts(grams: grams, excitation: 3.3, at: self.instant(seconds))
        }
        let perGram = 1e-3 * 3.3 / 1000
        let zero = volts(0, 0)
        let loaded = volts(300, 0.1)
        let later = volts(300, 1800)
        let creepGrams = (later - loaded) / perGram
        // 0.03 % of 300 g after six time constants: 0.09 g · (1 − e⁻⁶).
        #expect(abs(creepGrams - 0.09 * (1 - 0.00248)) < 0.001)
        let unloaded = volts(0, 1800.1)
        let recovered = volts(0, 3600)
        #expect(unloaded - zero > 0.08 * perGram)
        #expect(abs(recovered - zero) < 0.001 * perGram)

        var drifting = LoadCell(creep: 0).ideal
        drifting.zeroDrift = 0.0002
        let at0 = drifting.outputVolts(grams: 0, excitation: 3.3, at: instant(0))
        let atQuarter = drifting.outputVolts(grams: 0, excitation: 3.3, at: instant(300))
        #expect(at0 != atQuarter)
        #expect(abs(atQuarter - at0) <= 2 * 0.0002e-3 * 3.3)
    }
}
