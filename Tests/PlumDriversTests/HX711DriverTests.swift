import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("HX711 driver against the chip model")
struct HX711DriverTests {
    struct CodeCase: Sendable, CustomTestStringConvertible {
        var gain: HX711Gain
        /// Grams on channel A, or volts on channel B.
        var input: Double
        var expectedFlags: SampleFlags
        var testDescription: String { "\(gain.shortName) input \(input)" }
    }

    static let codeCases: [CodeCase] = [
        CodeCase(gain: .channelA128, input: 100, expectedFlags: []),
        CodeCase(gain: .channelA128, input: 385, expectedFlags: []),
        CodeCase(gain: .channelA128, input: -250, expectedFlags: []),
        CodeCase(gain: .channelA128, input: 5000, expectedFlags: .overRange),
        CodeCase(gain: .channelA128, input: -5000, expectedFlags: .underRange),
        CodeCase(gain: .channelA64, input: 333.3, expectedFlags: []),
        CodeCase(gain: .channelA64, input: -777, expectedFlags: []),
        CodeCase(gain: .channelA64, input: 9000, expectedFlags: .overRange),
        CodeCase(gain: .channelB32, input: 0.5e-3, expectedFlags: []),
        CodeCase(gain: .channelB32, input: -12.3e-3, expectedFlags: []),
        CodeCase(gain: .channelB32, input: 0.06, expectedFlags: .overRange),
        CodeCase(gain: .channelB32, input: -0.06, expectedFlags: .underRange)
    ]

    @Test("Published codes are bit-exact with the chip's, across gains, signs and saturation", arguments: codeCases)
    func bitExactCodes(_ testCase: CodeCase) throws {
        let isB = testCase.gain == .channelB32
        let sim = try exactHX711Simulation(
            grams: isB ? 100 : testCase.input, gain: testCase.gain,
            channelBVolts: isB ? testCase.input : 0.5e-3)
        for _ in 0..<3 {
            let sample = try sim.sensor.next()
            let produced = try #require(sim.model.lastConversion)
            #expect(produced.settled)
            #expect(produced.gain == testCase.gain)
            #expect(sample.raw == produced.code)
            let volts = isB ? testCase.input : hx711BridgeVolts(grams: testCase.input)
            #expect(sample.raw == hx711DatasheetCode(volts: volts, gain: testCase.gain.gain))
            #expect(sample.signal == Double(sample.raw))
            #expect(sample.flags == testCase.expectedFlags.union(.simulated))
            #expect(sample.edgeTime == produced.time)
        }
    }

    @Test("The first sample follows a reset and the datasheet's four settling conversions")
    func initialSettling() throws {
        let sim = try exactHX711Simulation()
        let sample = try sim.sensor.next()
        #expect(sample.discarded == DiscardCounts(settling: 4))
        #expect(sim.model.counters.powerDowns == 1)
        let log = sim.model.conversionLog
        #expect(log.filter { !$0.settled }.count == 4)
        #expect(sample.raw == log.last?.code)
    }

    @Test("A gain change discards the conversion taken at the old gain and the settling ones")
    func gainChangeSettling() throws {
        let sim = try exactHX711Simulation(grams: 200)
        _ = try sim.sensor.next()
        sim.sensor.setGain(.channelA64)
        let sample = try sim.sensor.next()
        #expect(sample.discarded == DiscardCounts(settling: 5))
        let produced = try #require(sim.model.lastConversion)
        #expect(produced.gain == .channelA64)
        #expect(produced.settled)
        #expect(sample.raw == hx711DatasheetCode(volts: hx711BridgeVolts(grams: 200), gain: 64))
    }

    @Test("Power down and up discards the settling conversions and resumes at the configured gain")
    func powerDownAndUp() throws {
        let sim = try exactHX711Simulation(grams: 150, gain: .channelB32, channelBVolts: 2e-3)
        _ = try sim.sensor.next()
        try sim.sensor.powerDown()
        sim.clock.advance(by: .seconds(2))
        let conversionsBefore = sim.model.counters.conversions
        try sim.sensor.powerUp()
        #expect(sim.model.counters.powerDowns == 2)
        #expect(sim.model.counters.conversions == conversionsBefore)
        let sample = try sim.sensor.next()
        // Power-up resets to A128: one conversion at A128, then four settling at B32.
        #expect(sample.discarded == DiscardCounts(settling: 5))
        #expect(sample.raw == hx711DatasheetCode(volts: 2e-3, gain: 32))
    }

    @Test("DOUT stuck high is notReady with the wiring hint, after the configured timeout, never a value")
    func stuckDoutIsNotReady() throws {
        let sim = try exactHX711Simulation()
        _ = try sim.sensor.next()
        sim.model.inject(.doutStuckHigh, .from(sim.clock.now()))
        let start = sim.clock.now()
        var thrown: SensorError?
        do {
            _ = try sim.sensor.next()
        } catch {
            thrown = error
        }
        let error = try #require(thrown)
        guard case .notReady(let sensor, let waited, let hint) = error else {
            Issue.record("expected notReady, got \(error)")
            return
        }
        #expect(sensor == "simulated")
        #expect(waited == HX711Configuration.defaultReadyTimeout(for: .sps10))
        #expect(hint.contains("DOUT never went low"))
        #expect(error.description.contains("500 ms"))
        #expect(sim.clock.now().nanoseconds(since: start) >= waited.nanoseconds)
        #expect(sim.sensor.statistics.notReady == 1)
        #expect(sim.sensor.statistics.published == 1)
    }

    @Test("A chip that comes back after notReady is reset and read again")
    func recoversAfterNotReady() throws {
        let sim = try exactHX711Simulation(grams: 42)
        _ = try sim.sensor.next()
        let now = sim.clock.now()
        // Longer than the 500 ms timeout, so the first read gives up.
        sim.model.inject(.doutStuckHigh, .from(now, until: now.advanced(byNanoseconds: 700_000_000)))
        #expect(throws: SensorError.self) { try sim.sensor.next() }
        let sample = try sim.sensor.next()
        #expect(sample.raw == hx711DatasheetCode(volts: hx711BridgeVolts(grams: 42), gain: 128))
        #expect(sample.discarded.settling == 4)
    }

    struct StretchCase: Sendable, CustomTestStringConvertible {
        var pulse: Int
        var stretch: Duration
        var chipPowersDown: Bool
        var testDescription: String { "pulse \(pulse) +\(stretch.formattedMicroseconds)" }
    }

    @Test(
        "A stretched clock period is discarded and counted, then the driver resynchronises",
        arguments: [
            StretchCase(pulse: 3, stretch: .microseconds(52), chipPowersDown: false),
            StretchCase(pulse: 12, stretch: .microseconds(200), chipPowersDown: true),
            StretchCase(pulse: 25, stretch: .milliseconds(5), chipPowersDown: true)
        ])
    func stretchedClock(_ testCase: StretchCase) throws {
        let sim = try exactHX711Simulation(grams: 250)
        _ = try sim.sensor.next()
        let powerDowns = sim.model.counters.powerDowns
        sim.model.inject(.stretchedClock(pulse: testCase.pulse, by: testCase.stretch), .nextConversions(1))
        let sample = try sim.sensor.next()
        #expect(sim.model.counters.faultsApplied == 1)
        // The chip powered down on its own, or not; the driver's reset powers it down once more.
        #expect(sim.model.counters.powerDowns == powerDowns + (testCase.chipPowersDown ? 2 : 1))
        #expect(sample.discarded == DiscardCounts(stretchedClock: 1, settling: 4))
        #expect(sim.sensor.statistics.discarded.stretchedClock == 1)
        #expect(sample.raw == hx711DatasheetCode(volts: hx711BridgeVolts(grams: 250), gain: 128))
        #expect(sim.model.lastConversion?.settled == true)
    }

    @Test("Clock stretched on every read gives a hardware error that names the cause")
    func persistentStretch() throws {
        let sim = try exactHX711Simulation()
        _ = try sim.sensor.next()
        sim.model.inject(.stretchedClock(pulse: 1, by: .microseconds(80)), .from(sim.clock.now()))
        var thrown: SensorError?
        do { _ = try sim.sensor.next() } catch { thrown = error }
        guard case .hardware(_, let hardware)? = thrown else {
            Issue.record("expected a hardware error, got \(String(describing: thrown))")
            return
        }
        #expect(hardware.hint?.contains("real-time priority") == true)
        let limit = SimulatedHX711<VirtualClock>.Sensor.Driver.consecutiveFailureLimit
        #expect(sim.sensor.statistics.discarded.stretchedClock == UInt32(limit))
        #expect(sim.sensor.statistics.published == 1)
    }

    @Test("A DOUT glitch on any bit is caught by bit verification and not published", arguments: [1, 2, 12, 23, 24])
    func glitchDiscarded(bit: Int) throws {
        let sim = try exactHX711Simulation(grams: 123.4)
        let first = try sim.sensor.next()
        sim.model.inject(.doutGlitch(bit: bit), .nextConversions(1))
        let sample = try sim.sensor.next()
        #expect(sim.model.counters.faultsApplied == 1)
        // Only the glitched conversion is lost: the pulse count was right, so no reset.
        #expect(sample.discarded == DiscardCounts(integrity: 1))
        #expect(sample.raw == first.raw)
        #expect(sim.sensor.statistics.discarded.integrity == 1)
    }

    @Test("Without bit verification the same glitch is published with exactly that bit flipped")
    func glitchWithoutVerification() throws {
        let sim = try exactHX711Simulation(grams: 123.4, verifyBits: false)
        let first = try sim.sensor.next()
        #expect(sim.sensor.info.notices.contains { $0.contains("bit verification off") })
        sim.model.inject(.doutGlitch(bit: 5), .nextConversions(1))
        let sample = try sim.sensor.next()
        #expect(sample.discarded.isEmpty)
        #expect(UInt32(bitPattern: sample.raw ^ first.raw) & 0xFF_FFFF == 1 << (24 - 5))
    }

    @Test(
        "A missed clock pulse leaves DOUT low after the gain pulses: discarded as integrity, chip reset",
        arguments: [1, 9, 24])
    func missedPulseCaught(pulse: Int) throws {
        // 100 g gives an even code, so the chip, one pulse behind, still shows a 0 at the check.
        let sim = try exactHX711Simulation(grams: 100)
        let first = try sim.sensor.next()
        try #require(first.raw & 1 == 0)
        sim.model.inject(.missedClockPulse(pulse: pulse), .nextConversions(1))
        let sample = try sim.sensor.next()
        #expect(sim.model.counters.faultsApplied == 1)
        #expect(sample.discarded == DiscardCounts(integrity: 1, settling: 4))
        #expect(sample.raw == first.raw)
    }

    @Test("Saturation injected at the input is published flagged, never as an ordinary value", arguments: [true, false])
    func saturationFlagged(positive: Bool) throws {
        let sim = try exactHX711Simulation(grams: 80)
        _ = try sim.sensor.next()
        sim.model.inject(.saturation(positive: positive), .nextConversions(2))
        let sample = try sim.sensor.next()
        #expect(sample.raw == (positive ? 0x7F_FFFF : -0x80_0000))
        #expect(sample.flags.contains(positive ? .overRange : .underRange))
        _ = try sim.sensor.next()
        let after = try sim.sensor.next()
        #expect(after.flags == .simulated)
        #expect(sim.sensor.statistics.saturated == 2)
    }

    @Test("Stale data-bit edges are drained: with both edges reported the ready edge time is still the conversion's")
    func drainsStaleEdges() throws {
        let sim = try exactHX711Simulation(grams: 321, edgeDetection: .both)
        for _ in 0..<5 {
            let sample = try sim.sensor.next()
            #expect(sample.edgeTime == sim.model.lastConversion?.time)
        }
    }

    @Test("A driver that fell a period behind cannot time the read-out: discarded as late, then resynchronised")
    func fellBehindIsLate() throws {
        let sim = try exactHX711Simulation(grams: 77)
        let before = try sim.sensor.next()
        sim.clock.advance(by: .milliseconds(350))
        let sample = try sim.sensor.next()
        // The conversion in the chip is not the one whose edge was seen, and its own completion
        // time is unknown: it is read out (so DOUT goes high again) and thrown away. The DOUT
        // check passed, so the chip's gain is known: no reset and no settling. The ones the chip
        // overwrote meanwhile, which nobody clocked out, are counted as missed.
        let (from, to) = (try #require(before.edgeTime), try #require(sample.edgeTime))
        let between = sim.model.conversionLog.filter { $0.time > from && $0.time < to }
        let overwritten = between.filter { $0.pulses == 0 }.count
        #expect(overwritten >= 1 && between.count == overwritten + 1, "the model overwrote conversions: \(between)")
        #expect(
            sample.discarded == DiscardCounts(lateReadout: 1, missedConversion: UInt32(overwritten)),
            "want one late read-out, \(overwritten) missed conversions and no reset")
        #expect(sample.edgeTime == sim.model.lastConversion?.time)
        #expect(sample.raw == hx711DatasheetCode(volts: hx711BridgeVolts(grams: 77), gain: 128))
    }

    @Test("After the failure limit the error is thrown, and the next read resets the chip before anything else")
    func resetsAfterPersistentFailures() throws {
        // 100 g gives an even code: one pulse missed leaves DOUT low after the gain pulses.
        let sim = try exactHX711Simulation(grams: 100)
        _ = try sim.sensor.next()
        let limit = SimulatedHX711<VirtualClock>.Sensor.Driver.consecutiveFailureLimit
        sim.model.inject(.missedClockPulse(pulse: 24), .nextConversions(1_000))
        #expect(throws: SensorError.self) { try sim.sensor.next() }
        #expect(sim.sensor.statistics.discarded.integrity == UInt32(limit))
        sim.model.clearFaults()
        let powerDowns = sim.model.counters.powerDowns
        let sample = try sim.sensor.next()
        #expect(sim.model.counters.powerDowns == powerDowns + 1, "the next read began with a reset")
        // The failed read-outs are still counted with the next sample published.
        #expect(sample.discarded == DiscardCounts(integrity: UInt32(limit), settling: 4))
        #expect(sample.raw == hx711DatasheetCode(volts: hx711BridgeVolts(grams: 100), gain: 128))
    }

    @Test("A failing line operation is a hardware error naming the sensor and the line's own error")
    func lineFailure() throws {
        let failure = HardwareError(
            .systemCall, operation: "reading", subject: "gpiochip0 line 5", errno: .ioError,
            hint: "check the GPIO chip")
        let sim = try exactHX711Simulation()
        let driverLine = FailingDataLine(error: failure)
        let sensor = try HX711Sensor(
            name: "left", wiring: "gpiochip0 DOUT=GPIO5 SCK=GPIO6", clockLine: sim.model.clockLine,
            dataLine: driverLine, time: sim.clock)
        #expect(throws: SensorError.hardware(sensor: "left", failure)) { try sensor.next() }
    }

    struct OperationsCase: Sendable, CustomTestStringConvertible {
        var gain: HX711Gain
        var verify: Bool
        var testDescription: String { "\(gain.shortName) verify \(verify)" }
    }

    @Test(
        "Statistics count samples, discards and the GPIO operations each sample costs",
        arguments: [
            OperationsCase(gain: .channelA128, verify: true), OperationsCase(gain: .channelA64, verify: true),
            OperationsCase(gain: .channelB32, verify: false)
        ])
    func statistics(_ testCase: OperationsCase) throws {
        let sim = try exactHX711Simulation(
            grams: 100, gain: testCase.gain, channelBVolts: 1.7e-3, verifyBits: testCase.verify)
        var previous = try sim.sensor.next()
        var discarded = previous.discarded
        for _ in 0..<10 {
            let before = sim.sensor.statistics.hardwareOperations
            let sample = try sim.sensor.next()
            let spent = sim.sensor.statistics.hardwareOperations - before
            // Drain: a poll, plus a read when the previous data bits left falling edges. Then
            // DOUT (high), the wait, the read of the ready edge, DOUT (low). Then per data bit
            // set, get, set (and a verifying get); per gain pulse set, set; and the final DOUT check.
            let drain: UInt64 = hasFallingEdge(previous.raw) ? 2 : 1
            let perBit: UInt64 = testCase.verify ? 4 : 3
            #expect(spent == drain + 4 + 24 * perBit + 2 * UInt64(testCase.gain.extraPulses) + 1)
            discarded += sample.discarded
            previous = sample
        }
        #expect(sim.sensor.statistics.published == 11)
        #expect(sim.sensor.statistics.discarded == discarded)
        #expect(sim.sensor.statistics.notReady == 0)
    }

    @Test("The source describes itself: kind, wiring, signal, rate and raised clock-high limit")
    func sourceInfo() throws {
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.inputNoise = 0
        let driver = HX711Configuration(rate: .sps80, clockHighLimit: .microseconds(2000))
        let sim = try SimulatedHX711(load: ConstantLoad(grams: 10), driver: driver, chip: chip)
        let info = sim.sensor.info
        #expect(info.kind == "hx711")
        #expect(info.signal == .loadCellCounts)
        #expect(info.nominalRate == 80)
        #expect(info.wiring.hasSuffix("channel A gain 128, 80 SPS"))
        #expect(
            info.notices == [
                "clock-high limit raised to 2000 µs (default 50 µs): for slow or emulated buses only"
            ])
        _ = try sim.sensor.next()
    }
}

/// Whether shifting out `code` drives DOUT from high to low at least once.
private func hasFallingEdge(_ code: Int32) -> Bool {
    let bits = UInt32(bitPattern: code) & 0xFF_FFFF
    // A 1 followed by a 0, MSB first.
    return (bits & ~(bits << 1) & 0xFF_FFFE) != 0
}

/// A DOUT line whose every operation fails, as a line on a chip that was unplugged.
private struct FailingDataLine: GPIOEdgeLine {
    var error: HardwareError
    func value() throws(HardwareError) -> Bool { throw error }
    func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool { throw error }
    func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int { throw error }
}
