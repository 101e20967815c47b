import Testing

@testable import PlumCore

/// Zero-tracking's limits (OIML R 76-1 4.5.7) and the minimum weight, as the engine's
/// configuration checks them, and tracking held until the power-up zero is set.
@Suite("Zero-tracking limits and the minimum weight")
struct ZeroTrackingLimitsTests {
    @Test(
        "a tracking rate over 0.5 d/s or a band over ±0.5 d is refused, naming the clause and the key",
        arguments: [
            (0.6, 0.5, "rate 0.6 d/s", "zero_tracking_rate_divisions"),
            (0.5, 0.75, "band ±0.75 d", "zero_tracking_band_divisions"),
            (-0.1, 0.5, "rate -0.1 d/s", "zero_tracking_rate_divisions")
        ])
    func trackingLimits(rate: Double, band: Double, named: String, key: String) {
        var configuration = ScaleConfiguration()
        configuration.zeroTrackingRate = rate
        configuration.zeroTrackingBand = band
        guard case .failure(let refusal) = configuration.validate() else {
            Issue.record("rate \(rate) d/s, band \(band) d accepted")
            return
        }
        #expect(refusal.reason.contains(named) && refusal.reason.contains("4.5.7"), "\(refusal.reason)")
        #expect(refusal.hint.contains(key), "\(refusal.hint)")
    }

    @Test("the R 76 limits themselves, 0.5 d/s and ±0.5 d, and Min of 20 d are accepted")
    func limitsAccepted() {
        var configuration = ScaleConfiguration()
        (configuration.zeroTrackingRate, configuration.zeroTrackingBand) = (0.5, 0.5)
        #expect(configuration.validate().isSuccess)
        // Min defaults to 20 d of 0.1 g: 2 g (R 76-1 table 3, class III).
        #expect(abs(configuration.minimumWeight - 2.0) < 1e-12)
        configuration.minimumWeightDivisions = 3_850
        #expect(configuration.validate().refusalReason?.contains("minimum weight 3850 d") == true)
    }

    @Test("no tracking before the power-up zero is set: a warm-up's stable load leaves the zero alone")
    func noTrackingBeforePowerUpZero() throws {
        var configuration = ScaleConfiguration()
        configuration.warmUp = 3_000_000_000
        var engine = try Fixtures.engine(configuration: configuration)
        var noise = SeededNoise(seed: 1)
        // 0.04 g, within the ±0.05 g tracking band, held still for two seconds of the warm-up:
        // tracking at 0.05 g/s would have moved the zero all the way to it.
        let readings = Fixtures.feed(&engine, grams: 0.04, count: 160, start: 0, noise: &noise)
        #expect(readings.contains { $0.isStable }, "the warm-up shows stable readings")
        #expect(engine.zeroOffset == 0, "tracking moved the zero to \(engine.zeroOffset) g before it was set")
    }
}
