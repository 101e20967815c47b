import Testing

@testable import PlumCore

@Suite("FSR engine and odd inputs")
struct EngineEdgeTests {
    @Test("a calibrated FSR reads grams to its 1 g division and marks readings with the indicator notice")
    func fsrReadings() throws {
        let truth = CalibrationModel.powerLaw(leakage: 0.4, coefficient: 0.9, exponent: 1.1)
        let sensor = SensorIdentity(id: "plum-b", model: "ADS1115 + FSR 402", channel: "AIN1")
        let points = [0.0, 50, 100, 200, 385].map {
            CalibrationPoint(grams: $0, signal: truth.signal(fromGrams: $0), noise: 0.1, samples: 24)
        }
        var configuration = ScaleConfiguration()
        configuration.division = try Division(grams: 1)
        let calibration = try CalibrationFit.fit(
            points: points, sensor: sensor, kind: .fsr, configuration: configuration, createdAt: "t"
        ).get()
        var engine = try WeighingEngine(
            sensor: sensor, kind: .fsr, configuration: configuration, calibration: calibration)
        var last: Reading?
        for index in 0..<80 {
            last = engine.process(EngineInput(signal: truth.signal(fromGrams: 123.2), time: UInt64(index) * 7_812_500))
        }
        let reading = try #require(last)
        #expect(reading.text() == "123 g")
        #expect(reading.isStable)
        #expect(reading.calibration?.notice == CalibrationFit.fsrNotice)
    }

    @Test("a non-finite signal is skipped: the last value stays, marked not stable")
    func nonFiniteSignal() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 1)
        Fixtures.feed(&engine, grams: 50, count: 80, start: 0, noise: &noise)
        let reading = engine.process(EngineInput(signal: .nan, time: 80 * Fixtures.nanosecondsPerSample))
        #expect(!reading.isStable)
        #expect(reading.display == .grams(divisions: 500, value: 50))
    }

    @Test("a calibrated engine whose first sample is not finite shows no signal, not a weight or a limit")
    func noSignalYet() throws {
        var engine = try Fixtures.engine()
        let reading = engine.process(EngineInput(signal: .infinity, time: 0))
        #expect(reading.display == .noSignal)
        #expect(reading.text() == "no signal")
        #expect(!reading.isOverload && !reading.isUnderload)
        #expect(ScaleGroup.summarize([reading]).total == .unavailable(reason: "sensor left has no valid signal yet"))
    }
}
