import PlumCore
import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An FSR on the ground side of its divider (3.3 V → 10 kΩ → AIN0 → FSR → GND) read on the
/// ±2.048 V range: untouched, the input sits at the 3.3 V supply, beyond the range, and the
/// ADS1115 pins at 7FFFh. The conductance is then at its *lowest*, not an overload.
@Suite("FSR on the ground side, supply above the range: FSR 402 → divider → ADS1115 model → driver → engine")
struct FSRGroundSideTests {
    static let groundSide = try! FSRDivider(supplyVolts: 3.3, fixedOhms: 10_000, placement: .fsrToGround)

    func sensor(
        grams: Double, gain: ADS1115Config.ProgrammableGain = .volts2_048, clock: VirtualClock = VirtualClock()
    ) -> SimulatedFSRSensor<VirtualClock> {
        SimulatedFSRSensor(
            clock: clock, load: ConstantLoad(grams: grams), gain: gain, divider: Self.groundSide,
            parameters: .ideal402, seed: 11)
    }

    /// The engine's view of a sample, mapped as the daemon maps it.
    func input(_ sample: Sample) -> EngineInput {
        var flags: EngineInput.Flags = []
        if sample.flags.contains(.overRange) { flags.insert(.overRange) }
        if sample.flags.contains(.underRange) { flags.insert(.underRange) }
        return EngineInput(signal: sample.signal, time: sample.time.nanoseconds, flags: flags)
    }

    @Test("Untouched, the code pins at 7FFFh and the sample is flagged under range, never over range")
    func untouchedIsUnderRange() throws {
        let simulated = sensor(grams: 0)
        for _ in 0..<8 {
            let sample = try simulated.sensor.next()
            #expect(sample.raw == 0x7FFF, "3.3 V on the ±2.048 V range pins the code")
            #expect(sample.flags.contains(.underRange), "the conductance is pinned at its bottom")
            #expect(!sample.flags.contains(.overRange), "an untouched FSR is not an overload")
            // The divider at 2.048 V: R = 10 kΩ · 2.048 / (3.3 − 2.048) = 16.36 kΩ, 61.1 µS.
            #expect(abs(sample.signal - 1e6 / (10_000 * 2.048 / (3.3 - 2.048))) < 0.1)
        }
    }

    @Test("Pressed past what the range can miss, it reads a conductance with no flag; shorted it is over range")
    func pressedReads() throws {
        // The ideal FSR 402 at 200 g (1.96 N): 1 kΩ · (1.96 / 10)^−0.8 = 3.68 kΩ, 271 µS.
        let expected = 1e6 / (1_000 * pow(200 * FSRModel.newtonsPerGram / 10, -0.8))
        let sample = try sensor(grams: 200).sensor.next()
        #expect(sample.flags == .simulated)
        #expect(abs(sample.signal - expected) / expected < 0.01, "\(sample.signal) µS, want \(expected)")
    }

    @Test("The engine shows no \"100%+\" and fires no cue for the untouched FSR; a press weighs")
    func engineEndToEnd() throws {
        // Calibrate as the wizard would: an open FSR reads 0 µS, and three known weights.
        var points = [CalibrationPoint(grams: 0, signal: 0, samples: 8)]
        for grams in [100.0, 200, 300] {
            let simulated = sensor(grams: grams)
            var total = 0.0
            for _ in 0..<8 { total += try simulated.sensor.next().signal }
            points.append(CalibrationPoint(grams: grams, signal: total / 8, samples: 8))
        }
        let identity = SensorIdentity(id: "fsr", model: "fsr402")
        let calibration = try CalibrationFit.fit(
            points: points, sensor: identity, kind: .fsr, configuration: ScaleConfiguration(),
            createdAt: "2026-11-23T00:00:00Z"
        ).get()
        var engine = try WeighingEngine(sensor: identity, kind: .fsr, calibration: calibration)

        // One clock for the untouched and the pressed part, so the engine's time runs forwards.
        let clock = VirtualClock()
        let untouched = sensor(grams: 0, clock: clock)
        var cues: [Cue] = []
        for _ in 0..<256 {
            let reading = engine.process(input(try untouched.sensor.next()))
            #expect(!reading.isOverload, "untouched FSR shown as overload: \(reading.text())")
            #expect(reading.text() != "100%+")
            cues += reading.cues
        }
        #expect(cues.isEmpty, "cues fired with nothing on the FSR: \(cues)")
        #expect(engine.lastReading?.isUnderload == true, "pinned at the bottom of the range: no weight shown")

        let pressed = sensor(grams: 200, clock: clock)
        var reading = engine.lastReading
        for _ in 0..<256 { reading = engine.process(input(try pressed.sensor.next())) }
        let net = try #require(reading?.net)
        #expect(abs(net - 200) < 10, "200 g on the calibrated FSR read \(net) g")
    }

    @Test("The warning names the side that cannot be read, from where, and the range that covers the supply")
    func warningText() {
        let ground = sensor(grams: 0).sensor.info.notices
        #expect(
            ground == [
                "range ±2.048 V is below the divider's 3.3 V supply: with the FSR on the ground side, an untouched FSR "
                    + "and presses below 61 µS (the FSR over 16.4 kΩ) read under range, with no weight shown; "
                    + "use pga_volts = 4.096, which covers the supply"
            ])
        let supplySide = SimulatedFSRSensor(clock: VirtualClock(), load: ConstantLoad(grams: 0), gain: .volts2_048)
        #expect(
            supplySide.sensor.info.notices == [
                "range ±2.048 V is below the divider's 3.3 V supply: presses above 164 µS (the FSR under 6.1 kΩ) "
                    + "read over range, shown as \"100%+\"; use pga_volts = 4.096, which covers the supply"
            ])
        #expect(sensor(grams: 0, gain: .volts4_096).sensor.info.notices.isEmpty, "±4.096 V covers 3.3 V")
    }
}
