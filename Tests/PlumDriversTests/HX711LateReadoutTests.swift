import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("HX711 read-outs that outlast the conversion period")
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
        let period = testCase.periodNanoseconds
        var readouts = 0
        var crossing = 0
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
                // The word is lost, and the chip is reset: four settling conversions follow.
                expectedDiscards += DiscardCounts(settling: 4, lateReadout: 1)
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
        #expect(sim.model.counters.faultsApplied == UInt64(crossing + index / 3 + (index % 3 == 2 ? 1 : 0)),
                "every injected preemption took effect")
        // Preempted after pulse 25 the word is complete; after pulses 1 to 24 it is replaced.
        #expect(sim.model.counters.wordsReplaced == UInt64(crossing - crossing / 25),
                "the chip replaced the word of every read-out preempted in its data bits")
        #expect(wrong.count == 0, "published wrong values (want \(expected)): \(wrong.prefix(8))")
        #expect(discards == expectedDiscards, "every late read-out discarded and counted, nothing else")
        #expect(sim.sensor.statistics.discarded.lateReadout == UInt32(crossing), "the running total counts them too")
        #expect(sim.sensor.statistics.published == UInt64(index + 1))
    }

    @Test("Every discard reason is reported under its key, late_readout included, and adds up to the total")
    func reasonsByKey() {
        let counts = DiscardCounts(stretchedClock: 1, integrity: 2, settling: 4, stale: 8, lateReadout: 16)
        let keys = counts.byKey.map(\.key)
        #expect(keys == ["stretched_clock", "integrity", "settling", "stale", "late_readout"])
        #expect(counts.byKey.reduce(0) { $0 + $1.count } == counts.total, "a reason missing from byKey")
        #expect(counts.reasons.map(\.reason).last == "late read-out")
        #expect(counts.total == 31)
    }
}
