import PlumDrivers
import PlumHardware
import PlumProbe
import PlumSimulation
import Testing

/// The DOUT watch over the driver's line protocols: the bit-accurate HX711 model proves the rate
/// detection, the miswired-line models prove each diagnosis.
@Suite("The HX711 DOUT watch, on simulated lines")
struct HX711WatchTests {
    static func chip(_ rate: HX711Rate, grams: Double = 100) -> HX711Model<VirtualClock> {
        var configuration = HX711Model<VirtualClock>.Configuration()
        configuration.rate = rate
        configuration.edgeDetection = .both
        configuration.conversionLogLimit = 256
        return HX711Model(clock: VirtualClock(), load: ConstantLoad(grams: grams), configuration: configuration)
    }

    static let window = Duration.milliseconds(1500)

    @Test(
        "a working HX711 is told at 10 and at 80 SPS, from the interval between DOUT's falls",
        arguments: HX711Rate.allCases)
    func rate(_ rate: HX711Rate) throws {
        let model = Self.chip(rate)
        let watch = HX711Watch(
            clockLine: model.clockLine, dataLine: model.dataLine, time: model.clock, window: Self.window)
        let observation = try watch.run()
        let verdict = HX711Verdict(observation)
        #expect(verdict.rate == rate, "\(verdict.finding)")
        // The chip converts every 1/rate s from power-up: a 1.5 s window holds 1.5·rate of them,
        // the first one period in.
        let expectedFalls = Int(1.5 * Double(rate.rawValue))
        #expect(abs(observation.readyFalls.count - expectedFalls) <= 1, "\(observation.readyFalls.count) falls")
        let period = UInt64(1_000_000_000 / rate.rawValue)
        #expect(observation.intervals.allSatisfy { $0 == period }, "\(observation.intervals)")
        #expect(observation.strayEdges == 0)
        #expect(observation.doutLowAfterReadout == 0)
        // The words read out are the chip's own conversions, code for code.
        let codes = model.conversionLog.suffix(observation.words.count).map(\.code)
        #expect(observation.words == Array(codes))
        guard case .ok(_, let interval, let lowest, let highest) = verdict else {
            Issue.record("not ok: \(verdict)")
            return
        }
        #expect(interval == period)
        #expect(lowest == observation.words.min() && highest == observation.words.max())
        #expect(verdict.finding.hasPrefix("DOUT falls every \(rate == .sps10 ? "100.0" : "12.5") ms: \(rate)"))
    }

    @Test("watching changes nothing in the chip: 25 pulses keep channel A gain 128, no serial error")
    func watchKeepsTheChipsSetting() throws {
        let model = Self.chip(.sps80)
        _ = try HX711Watch(
            clockLine: model.clockLine, dataLine: model.dataLine, time: model.clock, window: Self.window
        ).run()
        #expect(model.counters.serialErrors == 0)
        #expect(model.counters.powerDowns == 0)
        #expect(model.lastConversion?.gain == .channelA128)
    }

    @Test("an input beyond full scale is found as saturation, with the load cell's wiring as the cause")
    func saturated() throws {
        let model = Self.chip(.sps10)
        model.inject(.saturation(positive: true), .nextConversions(100))
        let verdict = HX711Verdict(
            try HX711Watch(clockLine: model.clockLine, dataLine: model.dataLine, time: model.clock).run())
        #expect(verdict == .saturated(code: 0x7F_FFFF))
        #expect(verdict.likelyCauses.first?.contains("E+ red") == true)
    }

    @Test("DOUT stuck high (unpowered, or an unconnected pin's pull-up) is stuck high")
    func stuckHigh() throws {
        let clock = VirtualClock()
        let observation = try HX711Watch(
            clockLine: UnconnectedOutput(), dataLine: StuckLine(level: true, clock: clock), time: clock
        ).run()
        #expect(HX711Verdict(observation) == .stuckHigh)
        #expect(clock.now().nanoseconds(since: MonotonicInstant(nanoseconds: 1_000_000_000)) >= 1_500_000_000)
    }

    @Test("DOUT held low is stuck low: the 25 pulses did not pull it high")
    func stuckLow() throws {
        let clock = VirtualClock()
        let observation = try HX711Watch(
            clockLine: UnconnectedOutput(), dataLine: StuckLine(level: false, clock: clock), time: clock
        ).run()
        #expect(observation.doutLowAfterReadout == 1)
        #expect(HX711Verdict(observation) == .stuckLow)
    }

    @Test("an HX711 that does not see PD_SCK converts once and holds DOUT low: stuck low, SCK named")
    func clockNotReaching() throws {
        let model = Self.chip(.sps10)
        let observation = try HX711Watch(
            clockLine: UnconnectedOutput(), dataLine: model.dataLine, time: model.clock
        ).run()
        #expect(observation.readyFalls.count == 1)
        let verdict = HX711Verdict(observation)
        #expect(verdict == .stuckLow)
        #expect(verdict.likelyCauses.first?.contains("does not see PD_SCK") == true)
    }

    @Test("a floating DOUT toggling at random is floating, whatever the seed", arguments: [1, 2, 3, 0xF1] as [UInt64])
    func floating(_ seed: UInt64) throws {
        let clock = VirtualClock()
        let line = FloatingLine(clock: clock, seed: seed)
        let verdict = HX711Verdict(
            try HX711Watch(clockLine: UnconnectedOutput(), dataLine: line, time: clock).run())
        guard case .floating(let edges) = verdict else {
            Issue.record("not floating: \(verdict)")
            return
        }
        #expect(edges > 20)
        #expect(verdict.likelyCauses.contains { $0.contains("swapped") })
    }
}
