import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Stability and zero tracking", .ownThreads)
struct StabilityAndTrackingTests {
    @Test("stability never reports stable during a ramp that leaves the band within the window")
    func rampNeverStable() async {
        // Slopes (g/s) steep enough to move more than 1 d (0.1 g) in 300 ms minus two samples.
        await propertyCheck(
            input: Gen.double(in: 0.4...500), Gen.bool, Gen.double(in: -100...300), Gen.int(in: 5...200)
        ) { slope, falling, start, periodMilliseconds in
            var detector = StabilityDetector(window: 300_000_000, band: 0.1)
            let period = UInt64(periodMilliseconds) * 1_000_000
            guard (0.3 - 2 * Double(period) / 1e9) * slope > 0.1 else { return }
            for index in 0..<200 {
                let t = Double(UInt64(index) * period) / 1e9
                let value = start + (falling ? -slope : slope) * t
                let stable = detector.update(value, time: UInt64(index) * period)
                #expect(!stable)
            }
        }
    }

    @Test("through the whole engine, a noisy load moving at 2 g/s or more is never stable")
    func engineRampNeverStable() async throws {
        await propertyCheck(input: Gen.double(in: 2...300), Gen.double(in: 0...100), Gen.int(in: 0...10_000)) {
            slope, start, seed in
            var engine = try Fixtures.engine()
            var noise = SeededNoise(seed: UInt64(seed))
            Fixtures.feed(&engine, grams: start, count: 80, start: 0, noise: &noise, sigma: 0.03)
            // Ramp for 1.5 s; from one window after it starts, no reading may be stable.
            for index in 80..<200 {
                let grams = start + slope * Double(index - 80) / 80 + noise.gaussian(sigma: 0.03)
                let reading = engine.process(
                    EngineInput(
                        signal: Fixtures.signal(grams: grams), time: UInt64(index) * Fixtures.nanosecondsPerSample))
                if index >= 80 + 24 {
                    #expect(!reading.isStable, "stable at \(reading.gross ?? .nan) g, sample \(index)")
                }
            }
        }
    }

    @Test("a steady load becomes stable once a full window has passed, not before")
    func steadyBecomesStable() {
        var detector = StabilityDetector(window: 300_000_000, band: 0.1)
        let stable = (0..<40).map { detector.update(5 + (($0 % 2 == 0) ? 0.04 : -0.04), time: UInt64($0) * 12_500_000) }
        #expect(stable.firstIndex(of: true) == 24)
        #expect(stable[24...].allSatisfy { $0 })
    }

    @Test("zero tracking never moves zero faster than its rate, over any sequence")
    func trackingRate() async {
        let step = zip(Gen.double(in: -0.2...0.2), Gen.bool(0.8), Gen.int(in: 0...3_000))
        await propertyCheck(input: step.array(of: 1...200)) { steps in
            let rate = 0.05  // 0.5 d/s at d = 0.1 g
            var tracker = ZeroTracker(rate: rate, band: 0.05)
            var time: UInt64 = 1_000_000_000
            var moved = 0.0
            var elapsed = 0.0
            for (gross, stable, milliseconds) in steps {
                let dt = UInt64(milliseconds) * 1_000_000
                time += dt
                let correction = tracker.correction(gross: gross, stable: stable, time: time)
                #expect(abs(correction) <= rate * min(Double(dt) / 1e9, 1) + 1e-15)
                if abs(gross) > 0.05 || !stable { #expect(correction == 0) }
                moved += abs(correction)
                elapsed += Double(dt) / 1e9
            }
            #expect(moved <= rate * elapsed + 1e-12)
        }
    }

    @Test("the engine follows a slow drift at zero but never swallows a small load")
    func trackingInEngine() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 0)
        // Drift of 0.01 g/s for 20 s at an empty pan: zero follows, the display stays 0.0.
        for index in 0..<1600 {
            let drift = 0.01 * Double(index) / 80
            let reading = engine.process(
                EngineInput(signal: Fixtures.signal(grams: drift), time: UInt64(index) * Fixtures.nanosecondsPerSample))
            if index > 40 { #expect(reading.display == .grams(divisions: 0, value: 0), "at \(drift) g drift") }
        }
        // A 2 g load placed now stays 2 g for ten seconds.
        let readings = Fixtures.feed(&engine, grams: 0.2 + 2, count: 800, start: 1600, noise: &noise)
        #expect(readings[40...].allSatisfy { $0.display == .grams(divisions: 20, value: 2) })
    }
}
