import PlumDrivers
import PlumHardware
import PlumSimulation
import PlumTestThreads
import Testing

@Suite("HX711 read-outs that outlast the conversion period", .ownThreads)
struct HX711LateReadoutTests {
    struct RateCase: Sendable, CustomTestStringConvertible {
        var rate: HX711Rate
        /// Samples per second as the RATE pin sets them (datasheet: 10 or 80).
        var samplesPerSecond: UInt64
        var testDescription: String { "\(samplesPerSecond) SPS" }
        /// One conversion period in nanoseconds, from the datasheet's output data rate.
        var periodNanoseconds: UInt64 { 1_000_000_000 / samplesPerSecond }
    }

    static let rates = [RateCase(rate: .sps10, samplesPerSecond: 10), RateCase(rate: .sps80, samplesPerSecond: 80)]

    @Test(
        "A read-out preempted in a PD_SCK low phase past the next conversion is never published: 1000 read-outs",
        arguments: rates)
    func preemptedLowPhases(_ testCase: RateCase) throws {
        let sim = try exactHX711Simulation(grams: 100, rate: testCase.rate)
        let expected = hx711DatasheetCode(volts: hx711BridgeVolts(grams: 100), gain: 128)
        _ = try sim.sensor.next()
        let powerUpsBefore = sim.model.counters.powerUps
        let period = testCase.periodNanoseconds
        var readouts = 0
        var crossing = 0
        var resets = 0
        var crossingPulses: [Int] = []
        var wrong: [Int32] = []
        var expectedDiscards = DiscardCounts()
        var discards = DiscardCounts()
        var index = 0
        while readouts < 1000 {
            // Every third read-out is preempted past the next conversion (1.2 periods), every
            // third one briefly (0.4 periods, over well before the next conversion); the rest
            // are not. The pulse after which the sampler loses the CPU walks through all 25.
            let pulse = 1 + (index / 3) % 25
            let long = Duration.nanoseconds(Int64(period * 6 / 5))
            let short = Duration.nanoseconds(Int64(period * 2 / 5))
            switch index % 3 {
            case 0:
                crossing += 1
                crossingPulses.append(pulse)
                expectedDiscards += Self.expectedDiscards(preemptedAfterPulse: pulse, nextWord: expected)
                if Self.forcesReset(preemptedAfterPulse: pulse, nextWord: expected) { resets += 1 }
                sim.model.inject(.preemptedLowPhase(pulse: pulse, by: long), .nextConversions(1))
            case 1:
                sim.model.inject(.preemptedLowPhase(pulse: pulse, by: short), .nextConversions(1))
            default:
                break
            }
            let sample = try sim.sensor.next()
            readouts += 1 + Int(sample.discarded.total)
            discards += sample.discarded
            if sample.raw != expected { wrong.append(sample.raw) }
            index += 1
        }
        #expect(
            sim.model.counters.faultsApplied == UInt64(crossing + index / 3 + (index % 3 == 2 ? 1 : 0)),
            "every injected preemption took effect")
        // Preempted after pulse 25 the word is complete; after pulses 1 to 24 it is replaced, and
        // the read-out's last 25 − pulse pulses shift the next word part-way. Unless the chip is
        // reset, the conversion after that one completes on a part-shifted word too (a serial
        // error the chip ignores), which the model counts as a replacement as well.
        let splitInWord = crossingPulses.filter { $0 <= 24 }.count
        #expect(
            sim.model.counters.wordsReplaced == UInt64(splitInWord + (splitInWord - resets)),
            "the chip replaced the word of every read-out preempted in its data bits")
        #expect(wrong.count == 0, "published wrong values (want \(expected)): \(wrong.prefix(8))")
        #expect(discards == expectedDiscards, "every late read-out discarded and counted, nothing else")
        #expect(
            sim.sensor.statistics.discarded.lateReadout == expectedDiscards.lateReadout,
            "the running total counts them too")
        #expect(sim.sensor.statistics.published == UInt64(index + 1))
        #expect(
            resets > 0 && resets < crossing,
            "both kinds of late read-out were exercised: \(resets) of \(crossing) reset")
        #expect(
            sim.model.counters.powerUps == powerUpsBefore + UInt64(resets),
            "the chip was reset only when the DOUT check failed")
    }

    /// Whether a read-out at gain 128 preempted past the next conversion after `pulse` ends with
    /// DOUT low, so the driver cannot trust the pulse count and resets the chip.
    ///
    /// Worked out from the datasheet's serial interface, not from the driver: the conversion
    /// that completes in the preemption replaces the word and restarts the shift at its MSB,
    /// so the 25 − pulse pulses after it shift out that many bits of the next word and DOUT
    /// then shows bit (25 − pulse) from the MSB, bit (pulse − 1) from the LSB. After pulse 25
    /// the DOUT check runs before the conversion completes and sees DOUT high.
    static func forcesReset(preemptedAfterPulse pulse: Int, nextWord: Int32) -> Bool {
        guard pulse <= 24 else { return false }
        return (UInt32(bitPattern: nextWord) >> UInt32(pulse - 1)) & 1 == 0
    }

    /// The discards one such preemption costs: the late read-out, plus the four settling
    /// conversions of a reset when DOUT was low. The conversion that replaced the word is
    /// never read: the late read-out's last pulses shift it part-way, then the reset loses it
    /// or the next conversion overwrites it; one missed conversion, counted from the time since
    /// the late read-out's ready edge. After pulse 25 the word was whole but the next
    /// conversion's ready edge fell inside the preempted read-out, so its read-out cannot be
    /// timed either: two late read-outs, no reset and nothing missed.
    static func expectedDiscards(preemptedAfterPulse pulse: Int, nextWord: Int32) -> DiscardCounts {
        if pulse == 25 { return DiscardCounts(lateReadout: 2) }
        let reset = forcesReset(preemptedAfterPulse: pulse, nextWord: nextWord)
        return DiscardCounts(settling: reset ? 4 : 0, lateReadout: 1, missedConversion: 1)
    }

    @Test(
        "At gain 64 a late read-out always resets the chip, so a split read-out never selects another gain",
        arguments: rates)
    func lateAtGain64Resets(_ testCase: RateCase) throws {
        let sim = try exactHX711Simulation(grams: 100, gain: .channelA64, rate: testCase.rate)
        let expected = hx711DatasheetCode(volts: hx711BridgeVolts(grams: 100), gain: 64)
        _ = try sim.sensor.next()
        let long = Duration.nanoseconds(Int64(testCase.periodNanoseconds * 6 / 5))
        var wrong: [Int32] = []
        // Preempted after pulse 1 or 2, the read-out leaves 26 or 25 pulses for the next word:
        // a valid selection of another gain, with DOUT high after it. (The model preempts on a
        // DOUT read in a low phase, so not after gain pulses 25 and 26, where nothing is read.)
        let pulses = Array(1...24) + [27] + [1, 2, 1, 2, 1, 2]
        for pulse in pulses {
            sim.model.inject(.preemptedLowPhase(pulse: pulse, by: long), .nextConversions(1))
            let sample = try sim.sensor.next()
            if sample.raw != expected { wrong.append(sample.raw) }
            #expect(sim.model.lastConversion?.gain == .channelA64, "the chip left gain 64 after pulse \(pulse)")
        }
        #expect(wrong.isEmpty, "published wrong values (want \(expected)): \(wrong.prefix(8))")
        #expect(sim.model.counters.faultsApplied == UInt64(pulses.count), "every injected preemption took effect")
        #expect(sim.sensor.statistics.discarded.lateReadout >= UInt32(pulses.count), "a late read-out went uncounted")
    }

    @Test("Every discard reason is reported under its key, late_readout and missed_conversion included, and adds up")
    func reasonsByKey() {
        let counts = DiscardCounts(
            stretchedClock: 1, integrity: 2, settling: 4, stale: 8, lateReadout: 16, missedConversion: 32)
        let keys = counts.byKey.map(\.key)
        #expect(keys == ["stretched_clock", "integrity", "settling", "stale", "late_readout", "missed_conversion"])
        #expect(counts.byKey.reduce(0) { $0 + $1.count } == counts.total, "a reason missing from byKey")
        #expect(counts.reasons.map(\.reason).suffix(2) == ["late read-out", "missed conversion"])
        #expect(counts.total == 63)
        var sum = DiscardCounts()
        sum += counts
        sum += counts
        #expect(sum.total == 2 * counts.total, "a reason missing from +=")
    }
}
