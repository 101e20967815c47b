import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// The OIML R 76-1 ranges the engine keeps (issue 25, item 4), and the warm-up before
/// zero-setting at start (item 8).
@Suite("R 76 ranges and warm-up", .ownThreads)
struct R76RangeTests {
    typealias Restore = ZeroTareRestoreTests

    @Test("zero-setting and tracking together span at most 4 % of Max; initial zero-setting at most 20 %")
    func zeroRanges() {
        var configuration = ScaleConfiguration()
        #expect(abs(configuration.zeroRange * 2 / configuration.capacity - 0.04) < 1e-12)
        #expect(configuration.validate().isSuccess)
        configuration.zeroRangeFraction = 0.04
        #expect(configuration.validate().refusalReason?.contains("4 % of Max in all") == true)
        configuration.zeroRangeFraction = 0.02
        configuration.initialZeroRangeFraction = 0.1
        #expect(configuration.validate().isSuccess)
        configuration.initialZeroRangeFraction = 0.11
        #expect(configuration.validate().refusalReason?.contains("20 % of Max in all") == true)
    }

    @Test("after a wide initial zero-setting, zero and tracking stay within ±2 % of that power-up zero")
    func rangesFromPowerUpZero() throws {
        var configuration = ScaleConfiguration()
        configuration.initialZeroRangeFraction = 0.1  // ±38.5 g
        var engine = try Fixtures.engine(configuration: configuration)
        var index = 0
        let first = Restore.hold(&engine, grams: 30, from: &index)
        #expect(first.display == .grams(divisions: 0, value: 0), "initial zero-setting took 30 g: \(first.display)")
        #expect(abs(engine.zeroReference - 30) < 0.05)
        Restore.hold(&engine, grams: 36, from: &index)
        #expect(engine.zero().isSuccess, "6 g from the power-up zero lies in its ±7.7 g range")
        Restore.hold(&engine, grams: 39, from: &index)
        #expect(engine.zero().refusalCode == .outsideZeroRange, "9 g from the power-up zero does not")
        #expect(abs(engine.zeroOffset - 36) < 0.05, "tracking kept the zero where it was set")
    }

    @Test("a preset tare, a typed value, is rounded to d", arguments: [(12.33, 12.3), (12.37, 12.4), (0.04, 0.0)])
    func presetTareRounded(grams: Double, rounded: Double) throws {
        var engine = try Fixtures.engine()
        var index = 0
        Restore.hold(&engine, grams: 0, from: &index)
        #expect(try engine.presetTare(grams: grams).get() == rounded)
        #expect(engine.tare == rounded)
    }

    @Test(
        "a semi-automatic tare sets the net to zero within ±¼ d; only the tare shown is rounded to d",
        arguments: [20.049, 12.33, 12.37, 87.32])
    func semiAutomaticTareFullResolution(grams: Double) throws {
        var engine = try Fixtures.engine()
        var index = 0
        Restore.hold(&engine, grams: 0, from: &index)
        Restore.hold(&engine, grams: grams, seconds: 2, from: &index)
        let shown = try engine.tareNow().get()
        // d = 0.1 g: the tare shown is the load to the nearest tenth of a gram.
        #expect(abs(shown - (grams * 10).rounded() / 10) < 1e-9, "tare shown \(shown)")
        #expect(abs(engine.tare - grams) < 0.025, "tare \(engine.tare) kept at full resolution")
        // The mean net over the next two seconds, the load untouched: zero within ¼ d (0.025 g),
        // where a tare rounded to d left up to ½ d (20.049 g read a net of 0.049 g).
        var noise = SeededNoise(seed: 99)
        let after = Fixtures.feed(&engine, grams: grams, count: 160, start: index, noise: &noise, sigma: 0.02)
        let nets = after.compactMap(\.net)
        let mean = nets.reduce(0, +) / Double(nets.count)
        #expect(abs(mean) <= 0.025, "mean net \(mean) g after taring \(grams) g")
        #expect(after.last?.display == .grams(divisions: 0, value: 0))
        let state = try #require(engine.zeroTareState)
        #expect(state.tare == engine.tare, "the saved tare keeps full resolution")
    }

    @Test("what can be tared can be restored: a tare above Max is refused, every accepted one restores")
    func tareRangesAgree() throws {
        for grams in [0.5, 87.3, 384.9, 385.0, 385.6] {
            var engine = try Fixtures.engine()
            var index = 0
            Restore.hold(&engine, grams: 0, from: &index)
            Restore.hold(&engine, grams: grams, from: &index)
            switch engine.tareNow() {
            case .failure(let refusal):
                #expect(grams > 385, "tare of \(grams) g refused: \(refusal)")
                #expect(engine.presetTare(grams: grams).refusalCode == .invalidWeight)
            case .success(let tare):
                #expect(grams <= 385.05, "tare of \(grams) g accepted above Max")
                let state = try #require(engine.zeroTareState)
                let outcome = ZeroTareRestore.decide(
                    saved: state, calibration: Restore.calibration, configuration: ScaleConfiguration(),
                    load: grams)
                #expect(outcome == .restored(zeroOffset: state.zeroOffset, tare: state.tare), "\(outcome)")
                #expect(engine.shownTare == tare, "the tare shown is the one answered")
            }
        }
    }

    @Test("division_grams is checked against max_divisions, 10 000 as for class III unless raised")
    func divisionCount() throws {
        var configuration = ScaleConfiguration()
        configuration.division = try Division(grams: 0.01)
        let reason = try #require(configuration.validate().refusalReason)
        #expect(reason.contains("division_grams 0.01") && reason.contains("38500") && reason.contains("10000"))
        #expect(configuration.validate().refusalHint?.contains("at least 0.0385 g") == true)
        configuration.maxDivisions = 50_000
        #expect(configuration.validate().isSuccess)
        configuration.capacity = 1000
        configuration.division = try Division(grams: 0.1)
        configuration.maxDivisions = 10_000
        #expect(configuration.validate().isSuccess, "exactly 10 000 divisions is class III")
    }

    @Test("a warm-up holds initial zero-setting and the restore decision until it is over, from the first sample")
    func warmUp() throws {
        var configuration = ScaleConfiguration()
        configuration.warmUp = 3_000_000_000
        var engine = try Fixtures.engine(configuration: configuration)
        engine.restoreZeroTare(try RestoreEdgeTests.cupTared())
        var noise = SeededNoise(seed: 9)
        let start = 800  // the first sample at 10 s: the warm-up runs from it, not from time 0
        let during = Fixtures.feed(&engine, grams: 2, count: 200, start: start, noise: &noise, sigma: 0.01)
        #expect(engine.isWarmingUp)
        #expect(during.last?.isStable == true)
        #expect(abs((during.last?.net ?? .nan) - 2) < 0.05, "zeroed during warm-up: \(String(describing: during.last))")
        #expect(engine.restoreOutcome == nil, "decided during warm-up")
        let after = Fixtures.feed(&engine, grams: 2, count: 80, start: start + 240, noise: &noise, sigma: 0.01)
        #expect(!engine.isWarmingUp)
        #expect(engine.restoreOutcome?.name == "tare-dropped")
        #expect(after.last?.display == .grams(divisions: 0, value: 0), "\(String(describing: after.last?.display))")
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

extension Result where Failure == Refusal {
    var refusalReason: String? {
        if case .failure(let refusal) = self { return refusal.reason }
        return nil
    }

    var refusalHint: String? {
        if case .failure(let refusal) = self { return refusal.hint }
        return nil
    }
}

/// The restore decision's invariants over random saved states and loads at start.
@Suite("Restore decision invariants", .ownThreads)
struct RestoreInvariantTests {
    @Test("whatever is kept explains the load: a tare within 5 d of the gross, a bare zero within the zero range")
    func keptExplainsLoad() async {
        let calibration = ZeroTareRestoreTests.calibration
        let configuration = ScaleConfiguration()
        let d = configuration.division.grams
        await propertyCheck(
            input: Gen.double(in: -10...10), Gen.double(in: -1...400), Gen.double(in: -20...420), Gen.double(in: -2...2)
        ) { zero, tare, load, reference in
            let saved = ZeroTareState(
                sensor: Fixtures.sensor.fileStem, calibration: CalibrationReference(calibration), zeroOffset: zero,
                zeroReference: reference, tare: tare)
            let outcome = ZeroTareRestore.decide(
                saved: saved, calibration: calibration, configuration: configuration, load: load)
            let gross = load - zero
            switch outcome {
            case .restored(let kept, let keptTare) where keptTare > 0:
                #expect(kept == zero && keptTare == tare)
                #expect(abs(gross - tare) <= 5 * d + 1e-9, "tare \(tare) kept under a gross of \(gross)")
            case .restored(let kept, _), .zeroOnly(let kept, _):
                #expect(kept == zero)
                #expect(abs(gross) <= configuration.zeroRange, "zero \(zero) kept under a gross of \(gross)")
            case .discarded:
                break
            }
            if outcome.zeroOffset != nil {
                #expect(abs(zero - reference) <= configuration.zeroRange * (1 + 1e-9))
                #expect(abs(reference) <= configuration.initialZeroRange)
                #expect(configuration.tareRange.contains(tare))
            }
        }
    }
}
