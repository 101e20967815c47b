import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// The flow rate is the slope of the weight over a time window: exact on a noise-free ramp at
/// any rate, absent until a window has been seen, and never a tare's or zero's step.
@Suite("Flow rate in grams per second", .ownThreads)
struct FlowRateTests {
    /// The rate after `seconds` of samples at `rate` SPS of `grams(t)`, t in seconds.
    static func last(
        _ flow: inout FlowRate, rate: Int, seconds: Double, from start: UInt64 = 0, _ grams: (Double) -> Double
    ) -> Double? {
        let period = 1_000_000_000 / UInt64(rate)
        var result: Double?
        for index in 0...Int(seconds * Double(rate)) {
            let time = start + UInt64(index) * period
            result = flow.update(grams(Double(time) / 1e9), time: time)
        }
        return result
    }

    @Test("a noise-free ramp of k g/s gives k, and a constant load gives 0, at any rate and window")
    func rampAndConstant() async {
        await propertyCheck(
            input: Gen.double(in: -500...500), Gen.double(in: 0...400), Gen.element(of: [8, 10, 80, 128, 860]),
            Gen.element(of: [250, 500, 1000, 2000])
        ) { k, base, rate, windowMilliseconds in
            let window = UInt64(windowMilliseconds!) * 1_000_000
            var ramp = FlowRate(window: window)
            let slope = Self.last(&ramp, rate: rate!, seconds: 3) { base + k * $0 }
            let measured = try #require(slope, "no rate after 3 s at \(rate!) SPS over \(window / 1_000_000) ms")
            #expect(
                abs(measured - k) <= 1e-6 * max(1, abs(k)),
                "a ramp of \(k) g/s from \(base) g at \(rate!) SPS read \(measured) g/s")
            var still = FlowRate(window: window)
            let constant = try #require(Self.last(&still, rate: rate!, seconds: 3) { _ in base })
            #expect(abs(constant) <= 1e-9, "a constant \(base) g at \(rate!) SPS read \(constant) g/s")
        }
    }

    @Test("there is no rate until the samples span a whole window, at 10 and at 80 SPS", arguments: [10, 80])
    func absentUntilWindow(rate: Int) {
        var flow = FlowRate(window: 1_000_000_000)
        let period = 1_000_000_000 / UInt64(rate)
        for index in 0..<rate {
            #expect(
                flow.update(Double(index), time: UInt64(index) * period) == nil,
                "a rate after \(Double(index) / Double(rate)) s, before the 1 s window was full")
        }
        #expect(
            flow.update(Double(rate), time: UInt64(rate) * period) != nil,
            "no rate once the samples spanned the window")
    }

    @Test("a missing reading, a gap longer than the window and time going back each start it over")
    func startsOver() {
        var flow = FlowRate(window: 500_000_000)
        let period: UInt64 = 100_000_000
        for index in 0...5 { _ = flow.update(Double(index), time: UInt64(index) * period) }
        #expect(flow.update(6, time: 6 * period) != nil, "no rate after a full window")
        #expect(flow.update(nil, time: 7 * period) == nil, "a rate through a missing reading")
        #expect(flow.update(8, time: 8 * period) == nil, "the window did not start over after a missing reading")
        for index in 9...13 { _ = flow.update(Double(index), time: UInt64(index) * period) }
        #expect(flow.update(14, time: 14 * period) != nil)
        #expect(flow.update(15, time: 30 * period) == nil, "a rate across a gap longer than the window")
        #expect(flow.update(16, time: 29 * period) == nil, "a rate with time going backwards")
    }

    @Test("through the engine: pouring at 5 g/s reads about 5 g/s at 10 and 80 SPS", arguments: [10, 80])
    func engineRamp(rate: Int) throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 3)
        let period = 1_000_000_000 / UInt64(rate)
        var reading: Reading?
        for index in 0..<(6 * rate) {
            let seconds = Double(index) / Double(rate)
            let grams = (seconds < 2 ? 50 : 50 + 5 * (seconds - 2)) + noise.gaussian(sigma: 0.03)
            reading = engine.process(EngineInput(signal: Fixtures.signal(grams: grams), time: UInt64(index) * period))
        }
        let flow = try #require(reading?.flow, "no flow after 4 s of pouring at \(rate) SPS")
        #expect(abs(flow - 5) < 0.25, "pouring 5 g/s at \(rate) SPS read \(flow) g/s")
    }

    @Test("a tare or a zero is never a flow: the rate starts over and a constant load reads 0 after")
    func tareIsNoFlow() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 1)
        let settled = Fixtures.feed(&engine, grams: 120, count: 240, start: 0, noise: &noise)
        #expect(settled.last?.flow.map { abs($0) < 0.05 } == true, "a still 120 g read \(settled.last?.flow as Any)")
        guard case .success = engine.tareNow() else {
            Issue.record("tare refused on a settled load")
            return
        }
        let after = Fixtures.feed(&engine, grams: 120, count: 160, start: 240, noise: &noise)
        #expect(after.prefix(80).allSatisfy { $0.flow == nil }, "a rate within the window after the tare")
        let rates = after.compactMap(\.flow)
        #expect(
            !rates.isEmpty && rates.allSatisfy { abs($0) < 0.05 },
            "the tare showed as a flow: \(rates.map { abs($0) }.max() ?? .nan) g/s")
        engine.clearTare()
        let cleared = engine.process(EngineInput(signal: Fixtures.signal(grams: 120), time: 400 * 12_500_000))
        #expect(cleared.flow == nil, "a rate right after the tare was cleared")
        Fixtures.feed(&engine, grams: 5, count: 240, start: 401, noise: &noise)
        guard case .success = engine.zero() else {
            Issue.record("zero refused on a settled 5 g")
            return
        }
        let zeroed = engine.process(EngineInput(signal: Fixtures.signal(grams: 5), time: 641 * 12_500_000))
        #expect(zeroed.flow == nil, "a rate right after a zero")
    }

    @Test("a sensor fault or not-ready spell starts the rate over, however short the gap")
    func faultStartsOver() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 4)
        let before = Fixtures.feed(&engine, grams: 80, count: 160, start: 0, noise: &noise)
        #expect(before.last?.flow != nil, "no rate after 2 s at 80 SPS")
        engine.interrupt(because: "no conversion")
        let after = Fixtures.feed(&engine, grams: 80, count: 80, start: 162, noise: &noise)
        #expect(after.allSatisfy { $0.flow == nil }, "a rate within a window of the fault")
    }

    @Test("an overloaded reading has no rate")
    func overloadHasNoRate() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 2)
        Fixtures.feed(&engine, grams: 100, count: 160, start: 0, noise: &noise)
        let over = Fixtures.feed(&engine, grams: 500, count: 10, start: 160, noise: &noise)
        #expect(over.allSatisfy { !$0.isOverload || $0.flow == nil }, "an overload carried a rate")
    }
}
