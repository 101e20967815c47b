import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("HX711 conversions the chip overwrote before the driver read them")
struct HX711MissedConversionTests {
    struct HoldCase: Sendable, CustomTestStringConvertible {
        var rate: HX711Rate
        /// Samples per second as the RATE pin sets them (datasheet: 10 or 80).
        var samplesPerSecond: UInt64
        var testDescription: String { "\(samplesPerSecond) SPS" }
        /// One conversion period in nanoseconds, from the datasheet's output data rate.
        var periodNanoseconds: UInt64 { 1_000_000_000 / samplesPerSecond }
    }

    /// Hold-offs after a read-out, in hundredths of a conversion period: within one period,
    /// past one and two, just past whole periods (where the count must not run ahead of the
    /// chip), and up to seven and a half; none ends so close before a conversion that the
    /// read-out after it would straddle that conversion. The model keeps every conversion up to eight periods
    /// behind, so its log is complete.
    static let holds = [30, 90, 120, 160, 202, 250, 310, 396, 401, 480, 501, 620, 750, 100, 200, 700]

    @Test(
        "A sampler held off k periods: every conversion the chip completed and nobody clocked out is counted as missed",
        arguments: [HoldCase(rate: .sps10, samplesPerSecond: 10), HoldCase(rate: .sps80, samplesPerSecond: 80)])
    func heldOff(_ testCase: HoldCase) throws {
        let sim = try exactHX711Simulation(grams: 100, rate: testCase.rate)
        let expected = hx711DatasheetCode(volts: hx711BridgeVolts(grams: 100), gain: 128)
        var previous = try sim.sensor.next()
        var missedInAll: UInt32 = 0
        for (index, hold) in (Self.holds + Self.holds.reversed()).enumerated() {
            // The sampler thread loses the CPU after publishing; the chip converts on.
            sim.clock.advance(byNanoseconds: testCase.periodNanoseconds * UInt64(hold) / 100)
            let sample = try sim.sensor.next()
            let from = try #require(previous.edgeTime, "a published sample carries its ready edge")
            let to = try #require(sample.edgeTime, "a published sample carries its ready edge")
            // What the chip did meanwhile, from its own log: each conversion that completed
            // between the two published ones, and how many PD_SCK pulses it got.
            let log = sim.model.conversionLog
            try #require(log.first.map { $0.time <= from } == true, "the model's log reaches back far enough")
            let between = log.filter { $0.time > from && $0.time < to }
            let first = try #require(log.first { $0.time == from }, "the previous sample's conversion is logged")
            let serials = [first.serial] + between.map(\.serial)
            try #require(
                zip(serials, serials.dropFirst()).allSatisfy { $1 == $0 + 1 },
                "the model skipped no conversions: \(serials)")
            let nobodyRead = UInt32(between.filter { $0.pulses == 0 }.count)
            let pulses = between.map(\.pulses)
            #expect(
                sample.discarded.missedConversion == nobodyRead,
                "hold \(hold)/100 periods (#\(index)): the chip overwrote \(nobodyRead) unread (pulses \(pulses))")
            #expect(
                sample.discarded.total == UInt32(between.count),
                "hold \(hold)/100 periods: \(between.count) conversions, each published or counted once")
            #expect(sample.raw == expected, "a held-off sampler published a wrong value")
            missedInAll += sample.discarded.missedConversion
            previous = sample
        }
        #expect(missedInAll > 0, "the hold-offs made the chip overwrite conversions")
        #expect(sim.sensor.statistics.discarded.missedConversion == missedInAll, "the running total counts them too")
        #expect(sim.model.counters.powerDowns == 1, "a hold-off never needs a reset, only the first read")
    }
}
