import Testing

@testable import PlumCore

/// The recognition of a saved container on the empty pan, through the real engine's readings:
/// a 1 kg scale at 80 SPS with a little noise, d = 0.1 g, so "within 2 d" is within 0.2 g.
@Suite("Container recognition on the real engine's readings")
struct ContainerRecognizerTests {
    static let library = ["bowl": 212.0, "crate": 900.0, "cup": 95.5]

    /// Settles the engine at `grams` for a second and hands every reading to `recognizer`: the
    /// matches it found.
    static func place(
        _ grams: Double, _ engine: inout WeighingEngine, _ recognizer: inout ContainerRecognizer, at start: inout Int,
        tares: [String: Double] = library
    ) -> [String] {
        var noise = SeededNoise(seed: UInt64(start + 3))
        let readings = Fixtures.feed(&engine, grams: grams, count: 80, start: start, noise: &noise, sigma: 0.02)
        start += 80
        var found: [String] = []
        for reading in readings {
            guard let match = recognizer.observe(reading, tares: tares) else { continue }
            found.append(match.name)
            // What the daemon does with a match: the saved weight as the preset tare.
            _ = engine.presetTare(grams: match.grams)
        }
        return found
    }

    static func engine() throws -> WeighingEngine {
        var configuration = ScaleConfiguration()
        configuration.capacity = 1000
        configuration.initialZeroSetting = false
        return try Fixtures.engine(configuration: configuration)
    }

    @Test("a bowl within 2 d of its saved weight on the empty pan is recognised once, and reads 0 g net after")
    func bowlRecognised() throws {
        var engine = try Self.engine()
        var recognizer = ContainerRecognizer()
        var index = 0
        #expect(Self.place(0, &engine, &recognizer, at: &index).isEmpty)
        #expect(Self.place(212.15, &engine, &recognizer, at: &index) == ["bowl"], "one match for one placement")
        #expect(engine.tare == 212.0)
        var quiet = SeededNoise(seed: 1)
        let net = Fixtures.feed(&engine, grams: 212.15, count: 80, start: index, noise: &quiet).last
        #expect(
            abs((net?.net ?? .nan) - 0.15) < 0.06,
            "the content is what exceeds the saved bowl: \(String(describing: net))")
        index += 80
        // Fruit added to the bowl: the pan was not empty before, so nothing is judged.
        #expect(Self.place(412.15, &engine, &recognizer, at: &index).isEmpty)
        #expect(engine.tare == 212.0)
    }

    @Test(
        "only a load within 2 d of exactly one saved container is recognised",
        arguments: [(211.75, nil), (212.2, "bowl"), (95.6, "cup"), (300.0, nil), (900.0, "crate")]
            as [(Double, String?)])
    func within(grams: Double, expected: String?) throws {
        var engine = try Self.engine()
        var recognizer = ContainerRecognizer()
        var index = 0
        _ = Self.place(0, &engine, &recognizer, at: &index)
        #expect(Self.place(grams, &engine, &recognizer, at: &index) == (expected.map { [$0] } ?? []))
    }

    @Test("a container put on a pan never seen empty, or within 2 d of two saved ones, is not tared")
    func notArmedOrAmbiguous() throws {
        var engine = try Self.engine()
        var recognizer = ContainerRecognizer()
        var index = 0
        #expect(Self.place(212.0, &engine, &recognizer, at: &index).isEmpty, "the pan was not seen empty first")
        _ = Self.place(0, &engine, &recognizer, at: &index)
        let twins = ["bowl A": 211.9, "bowl B": 212.1]
        #expect(
            Self.place(212.0, &engine, &recognizer, at: &index, tares: twins).isEmpty,
            "either bowl could be on the pan: nothing is tared")
        #expect(engine.tare == 0)
    }
}
