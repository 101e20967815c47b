import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Weighing engine", .ownThreads)
struct WeighingEngineTests {
    /// Settles the engine at `grams` for one second (80 samples) and returns the last reading.
    static func settle(_ engine: inout WeighingEngine, grams: Double, from start: Int = 0, seed: UInt64 = 7) -> Reading
    {
        var noise = SeededNoise(seed: seed)
        return Fixtures.feed(&engine, grams: grams, count: 80, start: start, noise: &noise, sigma: 0.03).last!
    }

    struct LimitCase: Sendable, CustomStringConvertible {
        var grams: Double
        var overload: Bool
        var underload: Bool
        var description: String { "\(grams) g" }
    }

    @Test(
        "overload starts above capacity + 9 d and underload below −2 % of capacity, the zero range's edge",
        arguments: [
            LimitCase(grams: 385, overload: false, underload: false),
            LimitCase(grams: 385.8, overload: false, underload: false),
            LimitCase(grams: 386.1, overload: true, underload: false),
            LimitCase(grams: 500, overload: true, underload: false),
            LimitCase(grams: -7.5, overload: false, underload: false),
            LimitCase(grams: -7.9, overload: false, underload: true)
        ])
    func limits(_ example: LimitCase) throws {
        var engine = try Fixtures.engine()
        // Switched on empty, as a scale is: initial zero-setting then has nothing to take up.
        _ = Self.settle(&engine, grams: 0)
        let reading = Self.settle(&engine, grams: example.grams, from: 80)
        #expect(reading.isOverload == example.overload)
        #expect(reading.isUnderload == example.underload)
        if example.overload {
            #expect(reading.display == .overload)
            #expect(reading.text() == "100%+")
            #expect(reading.percentText == "100%+")
        } else if example.underload {
            #expect(reading.display == .underload)
        } else {
            #expect(reading.text() == Division.standard.format(example.grams) + " g")
        }
    }

    @Test("a pinned ADC is an overload or underload, never a number")
    func pinnedADC() throws {
        var engine = try Fixtures.engine()
        _ = Self.settle(&engine, grams: 100)
        let high = engine.process(EngineInput(signal: 8_388_607, time: 2_000_000_000, flags: .overRange))
        #expect(high.display == .overload)
        let low = engine.process(EngineInput(signal: -8_388_608, time: 2_012_500_000, flags: .underRange))
        #expect(low.display == .underload)
        #expect(!low.isStable)
    }

    @Test("zero outside ±2 % of capacity (R 76: 4 % in all) is refused with the load, the range and advice to tare")
    func zeroRangeRefusal() throws {
        var engine = try Fixtures.engine()
        _ = Self.settle(&engine, grams: 42)
        guard case .failure(let refusal) = engine.zero() else {
            Issue.record("zero at 42 g was accepted")
            return
        }
        #expect(refusal.code == .outsideZeroRange)
        #expect(
            refusal.description.hasPrefix("zero refused: load is 42.0 g, outside the ±7.7 g zero range — use tare"))
        #expect(engine.zeroOffset == 0)
    }

    @Test("zero inside the range makes the display read 0.0 and clears the tare")
    func zeroInsideRange() throws {
        var engine = try Fixtures.engine()
        _ = Self.settle(&engine, grams: 6)
        let offset = try engine.zero().get()
        #expect(abs(offset - 6) < 0.05)
        let reading = Self.settle(&engine, grams: 6, from: 80)
        #expect(reading.display == .grams(divisions: 0, value: 0))
        #expect(reading.isCentreOfZero)
    }

    @Test("zero and tare are refused while the load moves and when uncalibrated")
    func refusedWhenMovingOrUncalibrated() throws {
        var engine = try Fixtures.engine()
        for index in 0..<10 {
            _ = engine.process(
                EngineInput(signal: Fixtures.signal(grams: Double(index) * 5), time: UInt64(index) * 12_500_000))
        }
        #expect(engine.zero().refusalCode == .notStable)
        #expect(engine.tareNow().refusalCode == .notStable)

        var raw = try Fixtures.engine(calibrated: false)
        _ = Self.settle(&raw, grams: 0)
        #expect(raw.tareNow().refusalCode == .uncalibrated)
    }

    @Test("zero and tare immediately (MT-SICS ZI, TI) act on a moving load at its filtered value")
    func immediateWhileMoving() throws {
        var engine = try Fixtures.engine()
        for index in 0..<10 {
            _ = engine.process(
                EngineInput(
                    signal: Fixtures.signal(grams: 40 + Double(index % 2) * 4), time: UInt64(index) * 12_500_000))
        }
        #expect(engine.lastReading?.isStable == false)
        let tare = try engine.tareNow(requireStable: false).get()
        #expect(tare > 38 && tare < 46)
        var uncalibrated = try Fixtures.engine(calibrated: false)
        _ = Self.settle(&uncalibrated, grams: 0)
        #expect(uncalibrated.zero(requireStable: false).refusalCode == .uncalibrated)
    }

    @Test("a preset tare lies between 0 and the capacity, whatever the pan carries, and needs a calibration")
    func presetTare() throws {
        var engine = try Fixtures.engine()
        #expect(try engine.presetTare(grams: 12.5).get() == 12.5)
        #expect(engine.tare == 12.5)
        #expect(engine.presetTare(grams: -1).refusalCode == .invalidWeight)
        #expect(engine.presetTare(grams: engine.configuration.capacity + 1).refusalCode == .invalidWeight)
        #expect(engine.presetTare(grams: .nan).refusalCode == .invalidWeight)
        #expect(engine.tare == 12.5, "a refused preset leaves the tare alone")
        var uncalibrated = try Fixtures.engine(calibrated: false)
        #expect(uncalibrated.presetTare(grams: 5).refusalCode == .uncalibrated)
    }

    @Test("after a tare, the same load reads 0 within one division whenever it is flagged stable, and settles there")
    func tareThenZero() async {
        // Containers from just above the zero offset up to where container + offset stays under Max.
        // The noise is Gaussian, so now and then one sample lies 5 σ out (0.15 g at σ 0.03 g): the
        // filter takes it as a possible step and shows it, flagged unstable, for a few samples.
        // What must hold is that no such number is ever flagged stable, and that the display
        // comes back to 0.
        await propertyCheck(input: Gen.double(in: 10.5...370), Gen.double(in: -10...10), Gen.int(in: 0...100_000)) {
            container, zero, seed in
            var engine = try Fixtures.engine()
            var noise = SeededNoise(seed: UInt64(seed))
            Fixtures.feed(&engine, grams: zero + container, count: 80, start: 0, noise: &noise, sigma: 0.03)
            _ = try engine.tareNow().get()
            let tare = engine.tare
            let after = Fixtures.feed(
                &engine, grams: zero + container, count: 80, start: 80, noise: &noise, sigma: 0.03)
            for reading in after {
                guard case .grams(let divisions, _) = reading.display else {
                    Issue.record("no number after tare of \(tare) g")
                    return
                }
                if reading.isStable {
                    #expect(abs(divisions) <= 1, "stable at \(divisions) d after a tare of \(tare) g")
                }
                #expect(reading.tare == tare)
                #expect(abs((reading.gross ?? .nan) - (reading.net ?? .nan) - tare) < 1e-9)
            }
            // Then a quiet second: the display is 0 and stable.
            let settled = Fixtures.feed(&engine, grams: zero + container, count: 80, start: 160, noise: &noise).last
            guard case .grams(let divisions, _) = settled?.display, settled?.isStable == true else {
                Issue.record("not settled after a tare of \(tare) g: \(String(describing: settled?.display))")
                return
            }
            #expect(abs(divisions) <= 1, "settled at \(divisions) d after a tare of \(tare) g")
        }
    }

    @Test("an uncalibrated sensor still yields readings: raw signal, flags, the reason, no grams")
    func uncalibratedReadings() throws {
        var engine = try WeighingEngine(
            sensor: Fixtures.sensor, kind: .loadCell, calibration: nil,
            uncalibratedReason: "/var/lib/plumscale/left-gain128.json: checksum mismatch")
        var noise = SeededNoise(seed: 1)
        let reading = Fixtures.feed(&engine, grams: 50, count: 80, start: 0, noise: &noise).last!
        #expect(reading.display == .uncalibrated)
        #expect(reading.gross == nil && reading.net == nil && reading.percentOfCapacity == nil)
        #expect(reading.signal == Fixtures.signal(grams: 50))
        #expect(reading.uncalibratedReason?.contains("checksum") == true)
        #expect(!reading.isCalibrated)
    }

    @Test("a tared bowl still counts towards full force: the percentage and the max-force cue are on the gross load")
    func taredBowlCountsTowardsForce() throws {
        var engine = try Fixtures.engine()
        _ = Self.settle(&engine, grams: 0)
        _ = Self.settle(&engine, grams: 100, from: 80)
        _ = try engine.tareNow().get()
        var noise = SeededNoise(seed: 3)
        let readings = Fixtures.feed(&engine, grams: 100 + 290, count: 160, start: 160, noise: &noise, sigma: 0.03)
        let last = try #require(readings.last)
        #expect(abs((last.net ?? 0) - 290) < 0.1, "net is the fruit alone")
        #expect(
            abs((last.percentOfCapacity ?? 0) - 390 / 3.85) < 0.1, "percent is the force on the cell, bowl included")
        #expect(
            readings.contains { $0.cues.contains(.maxForce) },
            "390 g on a 385 g cell reaches full force though the net is 290 g")
    }

    @Test("the max-force cue fires once at 100 %, re-arms only below 90 %, and is rate-limited")
    func cueHysteresis() throws {
        var engine = try Fixtures.engine()
        var index = 0
        var noise = SeededNoise(seed: 3)
        func hold(_ grams: Double, seconds: Double) -> Int {
            let count = Int(seconds * 80)
            defer { index += count }
            return Fixtures.feed(&engine, grams: grams, count: count, start: index, noise: &noise)
                .reduce(0) { $0 + $1.cues.filter { $0 == .maxForce }.count }
        }
        #expect(hold(100, seconds: 1) == 0)
        #expect(hold(385.5, seconds: 2) == 1)  // reaches 100 %: one cue, not one per sample
        #expect(hold(360, seconds: 2) == 0)  // 93.5 %: still above the re-arm level
        #expect(hold(385.5, seconds: 2) == 0)
        #expect(hold(300, seconds: 2) == 0)  // 78 %: re-arms
        #expect(hold(390, seconds: 0.2) == 1)  // overload counts as full force
        // Back below 90 % and up again within the 1 s interval: the cue waits, then fires once.
        #expect(hold(100, seconds: 0.2) == 0)
        #expect(hold(385.5, seconds: 0.5) == 0)
        #expect(hold(385.5, seconds: 1) == 1)
    }

    @Test("with the option on, a short cue marks each new stable loaded weight, once")
    func stableWeightCue() throws {
        var configuration = ScaleConfiguration()
        configuration.cue.stableWeightCue = true
        var engine = try Fixtures.engine(configuration: configuration)
        var noise = SeededNoise(seed: 4)
        var cues: [Cue] = []
        for (step, grams) in [0.0, 80, 80, 0, 120].enumerated() {
            cues += Fixtures.feed(&engine, grams: grams, count: 80, start: step * 80, noise: &noise, sigma: 0.03)
                .flatMap(\.cues)
        }
        #expect(cues.count == 2)
        guard case .stableWeight(let first) = cues.first, case .stableWeight(let second) = cues.last else {
            Issue.record("expected stable-weight cues, got \(cues)")
            return
        }
        #expect(abs(first - 80) < 0.1 && abs(second - 120) < 0.1)
    }

    @Test("a new load shows its weight and is stable within half a second at 80 SPS")
    func stepToStableReading() throws {
        var engine = try Fixtures.engine()
        _ = Self.settle(&engine, grams: 0)
        var noise = SeededNoise(seed: 11)
        let after = Fixtures.feed(&engine, grams: 57.3, count: 80, start: 80, noise: &noise, sigma: 0.03)
        // The spike stage holds the old value for two samples; count from when the display moves.
        let moved = try #require(after.firstIndex { $0.display != .grams(divisions: 0, value: 0) })
        let firstStable = try #require(after[moved...].firstIndex { $0.isStable })
        #expect(Double(firstStable) / 80 < 0.5)
        for reading in after[firstStable...] {
            guard case .grams(let divisions, _) = reading.display else { continue }
            #expect(abs(divisions - 573) <= 1)
        }
    }

    @Test("a stable wait answers with the first stable reading, or times out at its deadline")
    func stableWait() throws {
        var engine = try Fixtures.engine()
        var wait = StableWait(timeout: 2_000_000_000, from: 0)
        var outcome: StableWait.Outcome?
        var noise = SeededNoise(seed: 5)
        for reading in Fixtures.feed(&engine, grams: 20, count: 80, start: 0, noise: &noise) where outcome == nil {
            outcome = wait.consume(reading)
        }
        guard case .stable(let reading) = outcome else {
            Issue.record("no stable outcome: \(String(describing: outcome))")
            return
        }
        #expect(reading.isStable)

        // A load rising at 80 g/s: the wait, begun once it moves, must time out after 0.5 s.
        var moving = StableWait(timeout: 500_000_000, from: 90 * Fixtures.nanosecondsPerSample)
        var last: StableWait.Outcome?
        for index in 80..<200 {
            let reading = engine.process(
                EngineInput(
                    signal: Fixtures.signal(grams: Double(index - 60)),
                    time: UInt64(index) * Fixtures.nanosecondsPerSample))
            guard index >= 90 else { continue }
            last = moving.consume(reading)
            if reading.time <= moving.deadline { #expect(last == nil) }
        }
        guard case .timedOut = last else {
            Issue.record("expected a time-out, got \(String(describing: last))")
            return
        }
    }

    @Test("a calibration for another kind or gain is refused")
    func mismatchedCalibration() {
        let other = SensorIdentity(id: "left", model: "HX711 + 5 kg cell", channel: "A", gain: 64)
        #expect(throws: Refusal.self) {
            try WeighingEngine(sensor: other, kind: .loadCell, calibration: Fixtures.linearCalibration())
        }
        #expect(throws: Refusal.self) {
            try WeighingEngine(sensor: Fixtures.sensor, kind: .fsr, calibration: Fixtures.linearCalibration())
        }
    }

    @Test("readings convert to other units only at the edge, with at least the division's resolution")
    func unitText() throws {
        var engine = try Fixtures.engine()
        let reading = Self.settle(&engine, grams: 28.36)
        #expect(reading.text(in: .gram) == "28.4 g")
        #expect(reading.text(in: .ounce) == "1.002 oz")
        #expect(reading.text(in: .carat) == "142.0 ct")
    }

    @Test(
        "initial zero-setting takes up a small offset at switch-on, leaves a real load alone, and can be switched off",
        arguments: [
            (0.3, true, 0.0), (-2.0, true, 0.0), (7.5, true, 0.0), (15.0, true, 15.0), (100.0, true, 100.0),
            (0.3, false, 0.3)
        ])
    func initialZero(offset: Double, enabled: Bool, shown: Double) throws {
        var configuration = ScaleConfiguration()
        configuration.initialZeroSetting = enabled
        var engine = try Fixtures.engine(configuration: configuration)
        let first = Self.settle(&engine, grams: offset)
        #expect(abs((first.net ?? .nan) - shown) < 0.05, "\(first.text())")
        // Only at switch-on: a load placed and removed later is weighed, not zeroed.
        let later = Self.settle(&engine, grams: offset + 5, from: 80)
        #expect(abs((later.net ?? .nan) - (shown + 5)) < 0.05, "\(later.text())")
    }
}
