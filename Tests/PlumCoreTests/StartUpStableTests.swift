import Testing

@testable import PlumCore

/// A reading called stable is one to act on: the history stores it, a client tares on it. At
/// start-up the engine has not yet set its power-up zero (it waits for an average known to
/// ¼ d), and an empty pan read stable before then showed the cell's offset from calibrated
/// zero: the soak's history had a row of 0.1 or 0.2 g at every daemon start (RELIABILITY.md,
/// finding 1).
@Suite("Nothing is stable before the power-up zero is set")
struct StartUpStableTests {
    @Test(
        "an empty pan off calibrated zero: the first stable reading is after the power-up zero, and reads 0",
        arguments: [0.15, -0.18, 0.32])
    func firstStableIsZeroed(offset: Double) throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 5)
        let readings = Fixtures.feed(&engine, grams: offset, count: 240, start: 0, noise: &noise, sigma: 0.03)
        let index = try #require(readings.firstIndex { $0.isStable }, "never stable")
        let first = readings[index]
        #expect(abs(engine.zeroOffset - offset) < 0.05, "power-up zero \(engine.zeroOffset) for \(offset)")
        #expect(first.display == .grams(divisions: 0, value: 0), "first stable reading \(first.display) at \(index)")
        #expect(abs(first.net ?? .nan) < 0.05, "first stable net \(first.net ?? .nan)")
        let shown = readings[index...].filter(\.isStable).map(\.display)
        #expect(shown.allSatisfy { $0 == .grams(divisions: 0, value: 0) }, "stable displays \(Set(shown))")
    }

    @Test("with initial zero-setting off, the offset is a weight and is stable as soon as it settles")
    func withoutInitialZero() throws {
        var configuration = ScaleConfiguration()
        configuration.initialZeroSetting = false
        var engine = try Fixtures.engine(configuration: configuration)
        var noise = SeededNoise(seed: 5)
        let readings = Fixtures.feed(&engine, grams: 0.3, count: 240, start: 0, noise: &noise, sigma: 0.03)
        let first = try #require(readings.first { $0.isStable }, "never stable")
        #expect(first.display == .grams(divisions: 3, value: 0.3), "first stable reading \(first.display)")
    }
}
