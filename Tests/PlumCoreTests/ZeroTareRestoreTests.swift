import Testing

@testable import PlumCore

@Suite("Zero and tare over a restart")
struct ZeroTareRestoreTests {
    static let calibration = Fixtures.linearCalibration()

    /// Runs an engine at 80 SPS on a constant load (calibrated grams) for `seconds`.
    @discardableResult
    static func hold(_ engine: inout WeighingEngine, grams: Double, seconds: Double = 1, from start: inout Int)
        -> Reading
    {
        var noise = SeededNoise(seed: UInt64(start))
        let readings = Fixtures.feed(
            &engine, grams: grams, count: Int(seconds * 80), start: start, noise: &noise, sigma: 0.02)
        start += Int(seconds * 80)
        return readings.last!
    }

    /// A scale that zeroed 1.2 g of drift and tared an 87.3 g bowl, then lost power.
    static func savedBeforePowerCut() throws -> ZeroTareState {
        var engine = try Fixtures.engine()
        var index = 0
        hold(&engine, grams: 1.2, from: &index)  // initial zero takes the drift
        hold(&engine, grams: 1.2 + 87.3, from: &index)
        _ = try engine.tareNow().get()
        return try #require(engine.zeroTareState)
    }

    @Test("the bowl still on the pan after a power cut reads net zero again, without taring it again")
    func bowlStillThere() throws {
        let saved = try Self.savedBeforePowerCut()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Self.hold(&engine, grams: 1.2 + 87.3, from: &index)
        #expect(engine.restoreOutcome == .restored(zeroOffset: saved.zeroOffset, tare: saved.tare))
        #expect(reading.display == .grams(divisions: 0, value: 0), "\(reading.display)")
        #expect(abs(engine.tare - 87.3) < 0.05)
        // Without the saved state, the same pan shows the bowl and the drift (the complaint).
        var fresh = try Fixtures.engine()
        var freshIndex = 0
        #expect(Self.hold(&fresh, grams: 1.2 + 87.3, from: &freshIndex).display == .grams(divisions: 885, value: 88.5))
    }

    @Test("a bowl taken off while the scale was off: the zero comes back, the tare does not")
    func bowlGone() throws {
        let saved = try Self.savedBeforePowerCut()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Self.hold(&engine, grams: 1.2, from: &index)
        guard case .zeroOnly(_, let reason) = engine.restoreOutcome else {
            Issue.record("expected the tare to be dropped: \(String(describing: engine.restoreOutcome))")
            return
        }
        #expect(reason == "tare 87.3 g dropped: the pan is 87.3 g lighter than the tare", "\(reason)")
        #expect(reading.display == .grams(divisions: 0, value: 0), "reads \(reading.display), not minus the bowl")
    }

    @Test(
        "a new calibration, a load out of range or restore_tare off restores nothing, and initial zero runs as configured"
    )
    func notRestored() throws {
        let saved = try Self.savedBeforePowerCut()
        var recalibrated = saved
        recalibrated.calibration = CalibrationReference(Fixtures.linearCalibration(createdAt: "2026-06-01T08:00:00Z"))
        var off = ScaleConfiguration()
        off.restoreTare = false
        let cases: [(ZeroTareState, ScaleConfiguration, Double, String)] = [
            (recalibrated, ScaleConfiguration(), 1.2 + 87.3, "calibration"),
            (saved, ScaleConfiguration(), 450, "zero range"),
            (saved, off, 1.2 + 87.3, "restore_tare is off")
        ]
        for (state, configuration, grams, why) in cases {
            var engine = try Fixtures.engine(configuration: configuration)
            engine.restoreZeroTare(state)
            var index = 0
            Self.hold(&engine, grams: grams, from: &index)
            guard case .discarded(let reason) = engine.restoreOutcome else {
                Issue.record("restored for \(why): \(String(describing: engine.restoreOutcome))")
                continue
            }
            #expect(reason.contains(why), "\(reason)")
            #expect(engine.tare == 0)
        }
        // Discarded on an empty pan: initial zero-setting takes the 1.2 g drift as before.
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(recalibrated)
        var index = 0
        let reading = Self.hold(&engine, grams: 1.2, from: &index)
        #expect(abs(engine.zeroOffset - 1.2) < 0.05 && reading.display == .grams(divisions: 0, value: 0))
    }

    @Test("a tare command before the first stable reading wins over the saved one")
    func commandWins() throws {
        let saved = try Self.savedBeforePowerCut()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var noise = SeededNoise(seed: 1)
        Fixtures.feed(&engine, grams: 50, count: 4, start: 0, noise: &noise)
        _ = try engine.tareNow(requireStable: false).get()
        var index = 4
        Self.hold(&engine, grams: 50, from: &index)
        #expect(engine.restoreOutcome == nil)
        #expect(abs(engine.tare - 50) < 0.1)
    }

    @Test(
        "the decision refuses values outside this configuration's ranges",
        arguments: [
            (20.0, 10.0), (0.5, -1.0), (0.5, 400.0), (Double.nan, 0.0)
        ])
    func outOfRangeValues(zero: Double, tare: Double) {
        let state = ZeroTareState(
            sensor: Fixtures.sensor.fileStem, calibration: CalibrationReference(Self.calibration), zeroOffset: zero,
            tare: tare)
        let outcome = ZeroTareRestore.decide(
            saved: state, calibration: Self.calibration, configuration: ScaleConfiguration(), load: 100)
        guard case .discarded = outcome else {
            Issue.record("restored zero \(zero), tare \(tare): \(outcome)")
            return
        }
    }
}
