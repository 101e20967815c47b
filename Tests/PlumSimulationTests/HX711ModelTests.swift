import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// Drives the model's pins by hand, as a logic analyser's view of the datasheet's timing.
@Suite("HX711 chip model at its pins")
struct HX711ModelTests {
    typealias Model = HX711Model<VirtualClock>

    func makeModel(
        grams: Double = 100, rate: HX711Rate = .sps10, edgeDetection: EdgeDetection = .falling
    ) -> (Model, VirtualClock) {
        let clock = VirtualClock()
        var configuration = Model.Configuration()
        configuration.rate = rate
        configuration.inputNoise = 0
        configuration.loadCell = LoadCell().ideal
        configuration.edgeDetection = edgeDetection
        return (Model(clock: clock, load: ConstantLoad(grams: grams), configuration: configuration), clock)
    }

    /// Discards pending edge events, such as those of the previous read's data bits.
    func drain(_ model: Model) throws {
        var sink: [EdgeEvent] = []
        try model.dataLine.readEdgeEvents(into: &sink)
    }

    /// Waits until DOUT is low and gives `count` pulses, returning the bits read while PD_SCK was high.
    @discardableResult
    func read(_ model: Model, pulses count: Int) throws -> [Bool] {
        try drain(model)
        while try model.dataLine.value() {
            _ = try model.dataLine.waitForEdgeEvents(timeout: .seconds(1))
            try drain(model)
        }
        var bits: [Bool] = []
        for _ in 0..<count {
            try model.clockLine.setValue(true)
            bits.append(try model.dataLine.value())
            try model.clockLine.setValue(false)
        }
        return bits
    }

    @Test(
        "DOUT falls one conversion period after power-up; the event carries the conversion instant",
        arguments: HX711Rate.allCases)
    func readyEdge(rate: HX711Rate) throws {
        let (model, clock) = makeModel(rate: rate)
        let start = clock.now()
        #expect(try model.dataLine.value())
        #expect(try model.dataLine.waitForEdgeEvents(timeout: .seconds(1)))
        var events: [EdgeEvent] = []
        #expect(try model.dataLine.readEdgeEvents(into: &events) == 1)
        let expected = start.advanced(byNanoseconds: rate.period.nanoseconds)
        #expect(events == [EdgeEvent(kind: .falling, timestamp: expected, offset: 5)])
        #expect(try !model.dataLine.value())
        #expect(model.lastConversion?.time == expected)
    }

    @Test("Waiting with no chip activity times out after exactly the timeout, with no events")
    func waitTimesOut() throws {
        let (model, clock) = makeModel()
        try read(model, pulses: 25)
        try drain(model)
        let before = clock.now()
        #expect(try !model.dataLine.waitForEdgeEvents(timeout: .milliseconds(20)))
        // The operation's 1 µs, then the 20 ms timeout.
        #expect(clock.now().nanoseconds(since: before) == 20_001_000)
    }

    @Test(
        "24 pulses shift out the code MSB first in two's complement; the 25th pulls DOUT high",
        arguments: [100.0, -321.0, 5000.0])
    func shiftsCode(grams: Double) throws {
        let (model, _) = makeModel(grams: grams)
        let bits = try read(model, pulses: 24)
        let code = try #require(model.lastConversion?.code)
        var value: UInt32 = 0
        for bit in bits { value = value << 1 | (bit ? 1 : 0) }
        #expect(Int32(bitPattern: value << 8) >> 8 == code)
        try model.clockLine.setValue(true)
        #expect(try model.dataLine.value())
        try model.clockLine.setValue(false)
        #expect(model.counters.serialErrors == 0)
    }

    @Test(
        "25, 26 and 27 pulses select A128, B32 and A64 for the following conversions, which then settle",
        arguments: HX711Gain.allCases)
    func gainSelection(gain: HX711Gain) throws {
        let (model, _) = makeModel()
        // Let the power-up settling pass at A128.
        for _ in 0..<5 { try read(model, pulses: 25) }
        #expect(model.lastConversion?.settled == true)
        try read(model, pulses: gain.totalPulses)
        var settledFlags: [Bool] = []
        for _ in 0..<5 {
            try read(model, pulses: gain.totalPulses)
            #expect(model.lastConversion?.gain == gain)
            settledFlags.append(model.lastConversion?.settled ?? false)
        }
        let changed = gain != .channelA128
        #expect(settledFlags == (changed ? [false, false, false, false, true] : [true, true, true, true, true]))
    }

    @Test(
        "A pulse count outside 25...27 is a serial error that keeps the previous gain", arguments: [1, 20, 24, 28, 40])
    func serialError(pulses: Int) throws {
        let (model, _) = makeModel()
        for _ in 0..<5 { try read(model, pulses: 27) }
        #expect(model.lastConversion?.gain == .channelA64)
        let clock = model.clock
        try read(model, pulses: pulses)
        // Let the next conversion complete, so the next read is of it and not of the rest of this one.
        clock.advance(by: .milliseconds(100))
        try read(model, pulses: 27)
        #expect(model.counters.serialErrors == 1)
        #expect(model.lastConversion?.gain == .channelA64)
        #expect(model.lastConversion?.settled == true)
    }

    @Test("After fewer than 25 pulses DOUT keeps the last bit shifted out until the next conversion")
    func shortReadHoldsBit() throws {
        let (model, _) = makeModel(grams: 100)
        let bits = try read(model, pulses: 20)
        #expect(try model.dataLine.value() == bits[19])
    }

    @Test(
        "PD_SCK high over 60 µs powers down (DOUT high); low again resets to A128 and settles", arguments: [59, 61, 500]
    )
    func powerDown(microseconds: Int) throws {
        let (model, clock) = makeModel()
        for _ in 0..<5 { try read(model, pulses: 26) }
        #expect(model.lastConversion?.gain == .channelB32)
        // The rising edge costs 1 µs before it takes effect, the falling edge 1 µs after.
        try model.clockLine.setValue(true)
        clock.advance(by: .microseconds(microseconds - 1))
        try model.clockLine.setValue(false)
        let poweredDown = microseconds > 60
        #expect(model.counters.powerDowns == (poweredDown ? 1 : 0))
        let upAt = clock.now()
        try read(model, pulses: 26)
        let conversion = try #require(model.lastConversion)
        if poweredDown {
            #expect(conversion.gain == .channelA128)
            #expect(!conversion.settled)
            #expect(conversion.time == upAt.advanced(byNanoseconds: 100_000_000))
        } else {
            // Too short to power down, the high period is one more clock pulse: the 27th,
            // which selects channel A gain 64.
            #expect(conversion.gain == .channelA64)
        }
    }

    @Test("An extra pulse on the 25th switches the chip to channel B: a fault the protocol cannot reveal")
    func extraPulseSwitchesChannel() throws {
        let (model, _) = makeModel()
        for _ in 0..<5 { try read(model, pulses: 25) }
        model.inject(.extraClockPulse(pulse: 25), .nextConversions(1))
        try read(model, pulses: 25)
        try read(model, pulses: 25)
        #expect(model.counters.faultsApplied == 1)
        #expect(model.lastConversion?.gain == .channelB32)
    }

    @Test("The event queue holds 16 events and drops the oldest, like the kernel's")
    func eventQueueOverflow() throws {
        let (model, clock) = makeModel(grams: 100, edgeDetection: .both)
        // Three reads' data bits and ready edges, never collected: more than the queue holds.
        for _ in 0..<3 {
            clock.advance(by: .milliseconds(100))
            for _ in 0..<25 {
                try model.clockLine.setValue(true)
                try model.clockLine.setValue(false)
            }
        }
        clock.advance(by: .milliseconds(100))
        var events: [EdgeEvent] = []
        try model.dataLine.readEdgeEvents(into: &events)
        #expect(events.count == Model.eventQueueCapacity)
        // The newest survive: the last is the latest conversion's ready edge.
        #expect(events.last == EdgeEvent(kind: .falling, timestamp: model.lastConversion!.time, offset: 5))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp && $0.kind != $1.kind })
    }

    struct NoiseCase: Sendable, CustomTestStringConvertible {
        var rate: HX711Rate
        var gain: HX711Gain
        var testDescription: String { "\(rate) \(gain.shortName)" }
    }

    @Test(
        "Noise in counts matches the datasheet's input-referred figure within sampling error",
        arguments: [
            NoiseCase(rate: .sps10, gain: .channelA128), NoiseCase(rate: .sps80, gain: .channelA128),
            NoiseCase(rate: .sps80, gain: .channelA64)
        ])
    func noiseMatchesDatasheet(_ testCase: NoiseCase) throws {
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.loadCell = LoadCell().ideal
        chip.seed = 20_240_711
        let sim = try SimulatedHX711(
            load: ConstantLoad(grams: 200), driver: HX711Configuration(gain: testCase.gain, rate: testCase.rate),
            chip: chip)
        let count = 3000
        var sum = 0.0
        var sumOfSquares = 0.0
        for _ in 0..<count {
            let raw = Double(try sim.sensor.next().raw)
            sum += raw
            sumOfSquares += raw * raw
        }
        let mean = sum / Double(count)
        let sigma = ((sumOfSquares - Double(count) * mean * mean) / Double(count - 1)).squareRoot()
        // Datasheet: 50 nV (10 SPS) or 90 nV (80 SPS) rms at gain 128, assumed constant in
        // counts at lower gains; one count is (0.5 · AVDD / 128) / 2²³ volts at the input.
        let inputNoise = testCase.rate == .sps10 ? 50e-9 : 90e-9
        let expected = inputNoise / (0.5 * 3.3 / 128) * 8_388_608
        // The standard error of a sample standard deviation is σ/√(2(n−1)); allow four of them.
        let tolerance = 4 * expected / (2 * Double(count - 1)).squareRoot()
        #expect(abs(sigma - expected) < tolerance, "σ \(sigma) counts, datasheet \(expected) ± \(tolerance)")
        #expect(
            abs(mean - Double(datasheetCodeA(grams: 200, gain: testCase.gain.gain))) < 4 * expected
                / Double(count).squareRoot())
    }

    @Test("The same seed gives the same codes; another seed gives other noise")
    func seededNoiseRepeats() throws {
        func codes(seed: UInt64) throws -> [Int32] {
            var chip = HX711Model<VirtualClock>.Configuration()
            chip.seed = seed
            let sim = try SimulatedHX711(load: ConstantLoad(grams: 90), chip: chip)
            return try (0..<20).map { _ in try sim.sensor.next().raw }
        }
        #expect(try codes(seed: 7) == codes(seed: 7))
        #expect(try codes(seed: 7) != codes(seed: 8))
    }

    @Test("In real time the simulated sensor publishes samples stamped at their ready edges")
    func realTimeSimulation() throws {
        // 10 SPS: a read-out may take up to 75 ms of real time, so a test process starved of
        // CPU by the tests beside it still reads (at 80 SPS, 9.375 ms).
        let sim = try SimulatedHX711.realTime(seed: 3, driver: HX711Configuration(rate: .sps10))
        var previous: MonotonicInstant?
        for _ in 0..<3 {
            let sample = try sim.sensor.next()
            #expect(sample.flags.contains(.simulated))
            if let edge = sample.edgeTime {
                #expect(edge <= sample.time)
            }
            if let previous { #expect(sample.time > previous) }
            previous = sample.time
        }
        #expect(sim.sensor.statistics.published == 3)
    }
}

/// The datasheet code for the default cell (1 kg, 1 mV/V, 0.02 mV/V zero balance) at AVDD 3.3 V.
private func datasheetCodeA(grams: Double, gain: Int) -> Int32 {
    let volts = (0.02 + grams / 1000) * 1e-3 * 3.3
    return Int32((volts / (0.5 * 3.3 / Double(gain)) * 8_388_608).rounded())
}
