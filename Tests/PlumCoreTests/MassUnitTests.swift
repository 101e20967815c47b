import Testing

@testable import PlumCore

@Suite("Units")
struct MassUnitTests {
    struct Conversion: Sendable, CustomStringConvertible {
        var unit: MassUnit
        var grams: Double
        var value: Double
        var description: String { "\(grams) g = \(value) \(unit.symbol)" }
    }

    @Test(
        "grams convert to oz, lb and ct by their exact definitions, and back",
        arguments: [
            Conversion(unit: .gram, grams: 385, value: 385),
            Conversion(unit: .ounce, grams: 28.349_523_125, value: 1),
            Conversion(unit: .ounce, grams: 453.592_37, value: 16),
            Conversion(unit: .pound, grams: 453.592_37, value: 1),
            Conversion(unit: .carat, grams: 1, value: 5)
        ])
    func converts(_ example: Conversion) {
        #expect(abs(example.unit.value(fromGrams: example.grams) - example.value) < 1e-12)
        #expect(abs(example.unit.grams(from: example.value) - example.grams) < 1e-9)
    }

    @Test("an unknown unit symbol is refused with the accepted list")
    func unknownUnit() {
        guard case .failure(let refusal) = MassUnit.parse("kg") else {
            Issue.record("kg was accepted")
            return
        }
        #expect(refusal.description.contains("g, oz, lb, ct"))
        #expect(MassUnit.parse("OZ") == .success(.ounce))
    }
}
