import Foundation
import Testing

@testable import PlumCore

/// What a restart restores must still explain the load (issue 25, item 2): a tare only while
/// its container is on the pan, a zero only while the empty pan lies within its zero range,
/// and initial zero-setting after both, so nothing left over reads as a weight.
@Suite("Restore only what still explains the load")
struct RestoreEdgeTests {
    typealias Restore = ZeroTareRestoreTests

    /// A 12 g cup tared on a scale zeroed at `drift` g, then the daemon stopped.
    static func cupTared(drift: Double = 0.4) throws -> ZeroTareState {
        var engine = try Fixtures.engine()
        var index = 0
        Restore.hold(&engine, grams: drift, from: &index)
        Restore.hold(&engine, grams: drift + 12, from: &index)
        #expect(try engine.tareNow().get() == 12)
        return try #require(engine.zeroTareState)
    }

    @Test("a cup tared, taken off while the daemon was down: the empty pan reads 0.0, not −12.0, and says why")
    func cupTakenOff() throws {
        let saved = try Self.cupTared()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Restore.hold(&engine, grams: 0.4, from: &index)
        #expect(reading.display == .grams(divisions: 0, value: 0), "the empty pan reads \(reading.display)")
        #expect(engine.tare == 0)
        let outcome = try #require(engine.restoreOutcome)
        #expect(outcome.name == "tare-dropped")
        #expect(outcome.summary.hasPrefix("tare 12.0 g dropped: the pan is 12.0 g lighter than the tare"), "\(outcome)")
    }

    @Test("the cup still on the pan keeps its tare, within a few d of drift", arguments: [0.0, 0.3, -0.4])
    func cupStillThere(drift: Double) throws {
        let saved = try Self.cupTared()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Restore.hold(&engine, grams: 0.4 + 12 + drift, from: &index)
        #expect(engine.restoreOutcome == .restored(zeroOffset: saved.zeroOffset, tare: saved.tare))
        #expect(abs(saved.tare - 12) < 0.025, "the cup was tared at full resolution: \(saved.tare)")
        #expect(abs((reading.net ?? .nan) - drift) < 0.06, "\(reading.display)")
    }

    /// The restore decision waits for an average known to ¼ d; until it is made, the net is
    /// the gross (the cup's 12 g), and a client acting on a stable reading then would tare or
    /// report the cup. A real daemon restarted with the cup on showed exactly that.
    @Test("with a saved tare not yet judged, no reading is stable: the first stable one has the tare")
    func nothingStableBeforeTheRestore() throws {
        let saved = try Self.cupTared()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var noise = SeededNoise(seed: 11)
        let readings = Fixtures.feed(&engine, grams: 12.4, count: 160, start: 0, noise: &noise, sigma: 0.03)
        let first = try #require(readings.first { $0.isStable }, "never stable")
        #expect(abs(first.tare - 12) < 0.025 && abs((first.net ?? .nan)) < 0.1, "first stable: \(first)")
        #expect(engine.restoreOutcome == .restored(zeroOffset: saved.zeroOffset, tare: saved.tare))
    }

    @Test("something else on the pan in place of the cup: the tare is dropped and the load is weighed")
    func otherLoad() throws {
        let saved = try Self.cupTared()
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Restore.hold(&engine, grams: 0.4 + 50, from: &index)
        guard case .discarded(let reason) = engine.restoreOutcome else {
            Issue.record("kept: \(String(describing: engine.restoreOutcome))")
            return
        }
        #expect(reason.hasPrefix("tare 12.0 g dropped: the pan is 38.0 g heavier than the tare"), "\(reason)")
        #expect(reason.contains("zero 0.4 g dropped"), "\(reason)")
        // No zero explains 50.4 g and initial zero-setting leaves it alone: weighed from calibrated zero.
        #expect(reading.display == .grams(divisions: 504, value: 50.4), "\(reading.display)")
    }

    @Test("drift while the daemon was down beyond what tracking reaches is zeroed at start, not left standing")
    func driftTakenUp() throws {
        // Zeroed at 1.2 g; the cell cooled overnight by 0.6 g (6 d; tracking acts within ±0.5 d).
        var before = try Fixtures.engine()
        var index = 0
        Restore.hold(&before, grams: 1.2, from: &index)
        let saved = try #require(before.zeroTareState)
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var restartIndex = 0
        let reading = Restore.hold(&engine, grams: 1.8, seconds: 2, from: &restartIndex)
        #expect(engine.restoreOutcome == .restored(zeroOffset: saved.zeroOffset, tare: 0))
        #expect(reading.display == .grams(divisions: 0, value: 0), "a standing \(reading.display)")
        #expect(abs(engine.zeroOffset - 1.8) < 0.05)
    }

    @Test("a zero that no longer fits the empty pan is dropped, and initial zero-setting takes the pan")
    func zeroBeyondRange() throws {
        let saved = ZeroTareState(
            sensor: Fixtures.sensor.fileStem, calibration: CalibrationReference(Restore.calibration), zeroOffset: 6,
            zeroReference: 6, tare: 0)
        var engine = try Fixtures.engine()
        engine.restoreZeroTare(saved)
        var index = 0
        let reading = Restore.hold(&engine, grams: -3, from: &index)
        guard case .discarded(let reason) = engine.restoreOutcome else {
            Issue.record("kept: \(String(describing: engine.restoreOutcome))")
            return
        }
        #expect(reason == "zero 6.0 g dropped: the pan is -9.0 g from it, outside the ±7.7 g zero range", "\(reason)")
        #expect(reading.display == .grams(divisions: 0, value: 0), "\(reading.display)")
        #expect(abs(engine.zeroReference + 3) < 0.05)
    }

    @Test("zero-tracking's moves are saved once they add up to a division, so a restart restores them")
    func trackedZeroSaved() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 3)
        Fixtures.feed(&engine, grams: 0, count: 80, start: 0, noise: &noise, sigma: 0.01)
        engine.markZeroTareSaved()
        #expect(!engine.zeroMovedSinceSave)
        // A slow drift of 0.02 g/s (0.2 d/s, under the 0.5 d/s tracking rate) for 10 s.
        var moved = false
        for index in 80..<880 {
            let grams = Double(index - 80) / 80 * 0.02
            let time = UInt64(index) * Fixtures.nanosecondsPerSample
            let signal = Fixtures.signal(grams: grams + noise.gaussian(sigma: 0.01))
            _ = engine.process(EngineInput(signal: signal, time: time))
            if engine.zeroMovedSinceSave {
                moved = true
                break
            }
        }
        #expect(moved, "tracking followed \(engine.zeroOffset) g and asked for no save")
        let state = try #require(engine.zeroTareState)
        #expect(abs(state.zeroOffset) >= 0.1)
        engine.markZeroTareSaved()
        #expect(!engine.zeroMovedSinceSave)
    }

    @Test("a reload carries the live zero, tare and warm-up over without judging them on the load again")
    func reloadCarries() throws {
        var configuration = ScaleConfiguration()
        configuration.warmUp = 1_000_000_000
        var old = try Fixtures.engine(configuration: configuration)
        var index = 0
        Restore.hold(&old, grams: 1.2, seconds: 2, from: &index)  // warmed up, then zeroed at 1.2 g
        Restore.hold(&old, grams: 1.2 + 50, from: &index)  // a plum, not tared
        #expect(abs(old.zeroOffset - 1.2) < 0.05)
        configuration.stabilityBand = 2
        var reloaded = try Fixtures.engine(configuration: configuration)
        reloaded.carryZeroTare(from: old)
        #expect(!reloaded.isRestorePending)
        let reading = Restore.hold(&reloaded, grams: 1.2 + 50, from: &index)
        #expect(!reloaded.isWarmingUp, "the warm-up started over")
        #expect(reading.display == .grams(divisions: 500, value: 50), "the plum reads \(reading.display)")
        // Judged as at a start instead, the plum would have cost the zero: 51.2 g.
        var restarted = try Fixtures.engine()
        restarted.restoreZeroTare(try #require(old.zeroTareState))
        var restartIndex = 0
        let judged = Restore.hold(&restarted, grams: 1.2 + 50, from: &restartIndex)
        #expect(judged.display == .grams(divisions: 512, value: 51.2), "\(judged.display)")
    }

    @Test("a file written before the power-up zero was kept decodes with its ranges from calibrated zero")
    func olderFile() throws {
        let state = ZeroTareState(
            sensor: Fixtures.sensor.fileStem, calibration: CalibrationReference(Restore.calibration), zeroOffset: 0.5,
            zeroReference: 2, tare: 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = try #require(String(data: try encoder.encode(state), encoding: .utf8))
        let older = text.replacingOccurrences(of: #","zeroReference":2"#, with: "")
        #expect(older != text, "\(text)")
        let decoded = try JSONDecoder().decode(ZeroTareState.self, from: Data(older.utf8))
        #expect(decoded.zeroReference == 0 && decoded.zeroOffset == 0.5 && decoded.tare == 3)
    }
}
