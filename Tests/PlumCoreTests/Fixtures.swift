import PlumTestSupport

@testable import PlumCore

/// Shared set-ups: an HX711 at gain 128 with a 5 kg, 1 mV/V cell (≈ 430 counts per gram) and a
/// linear calibration.
enum Fixtures {
    static let countsPerGram = CalibrationFixture.countsPerGram
    static let emptyCounts = CalibrationFixture.emptyCounts
    static let nanosecondsPerSample: UInt64 = 12_500_000  // 80 SPS

    static let sensor = CalibrationFixture.sensor

    static func linearCalibration(sensor: SensorIdentity = sensor, createdAt: String = "2026-05-01T09:30:00Z")
        -> Calibration
    { CalibrationFixture.linear(sensor: sensor, createdAt: createdAt) }

    static func signal(grams: Double) -> Double { emptyCounts + countsPerGram * grams }

    static func engine(configuration: ScaleConfiguration = ScaleConfiguration(), calibrated: Bool = true) throws
        -> WeighingEngine
    {
        try WeighingEngine(
            sensor: sensor, kind: .loadCell, configuration: configuration,
            calibration: calibrated ? linearCalibration() : nil)
    }

    /// Feeds `count` samples of `grams` (plus optional noise) from sample index `start`.
    @discardableResult
    static func feed(
        _ engine: inout WeighingEngine, grams: Double, count: Int, start: Int, noise: inout SeededNoise,
        sigma: Double = 0
    ) -> [Reading] {
        (start..<(start + count)).map { index in
            let jitter = sigma > 0 ? noise.gaussian(sigma: sigma) : 0
            return engine.process(
                EngineInput(signal: signal(grams: grams + jitter), time: UInt64(index) * nanosecondsPerSample))
        }
    }
}

extension Result where Failure == Refusal {
    /// The refusal's code, or `nil` when the command succeeded.
    var refusalCode: Refusal.Code? {
        if case .failure(let refusal) = self { return refusal.code }
        return nil
    }
}
