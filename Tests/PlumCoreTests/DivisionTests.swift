import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Division and rounding", .ownThreads)
struct DivisionTests {
    struct RoundingCase: Sendable, CustomStringConvertible {
        var division: Double
        var grams: Double
        var text: String
        var description: String { "\(grams) g at d = \(division) g → \(text)" }
    }

    @Test(
        "net grams round to the nearest multiple of d, halves away from zero, printed exactly",
        arguments: [
            RoundingCase(division: 0.1, grams: 12.34, text: "12.3"),
            RoundingCase(division: 0.1, grams: 12.35, text: "12.4"),
            RoundingCase(division: 0.1, grams: -0.05, text: "-0.1"),
            RoundingCase(division: 0.1, grams: 0.3, text: "0.3"),
            RoundingCase(division: 0.2, grams: 0.29, text: "0.2"),
            RoundingCase(division: 0.2, grams: 0.31, text: "0.4"),
            RoundingCase(division: 0.5, grams: 384.74, text: "384.5"),
            RoundingCase(division: 0.5, grams: 384.76, text: "385.0"),
            RoundingCase(division: 1, grams: 42.5, text: "43"),
            RoundingCase(division: 2, grams: 5.1, text: "6"),
            RoundingCase(division: 0.01, grams: 0.004, text: "0.00")
        ])
    func rounding(_ example: RoundingCase) throws {
        let division = try Division(grams: example.division)
        #expect(division.format(example.grams) == example.text)
        let rounded = division.round(example.grams)
        #expect(abs(rounded.grams - Double(example.text)!) < 1e-12)
    }

    @Test("only 1, 2 or 5 × 10^k g are accepted as a division", arguments: [0.3, 0.25, 3.0, 0, -1, Double.nan])
    func refusesOtherDivisions(_ grams: Double) {
        #expect(throws: Refusal.self) { try Division(grams: grams) }
    }

    @Test("the default division is 0.1 g, giving 3850 divisions at 385 g")
    func defaults() {
        let configuration = ScaleConfiguration()
        #expect(configuration.division.format(divisions: 1) == "0.1")
        #expect((configuration.capacity / configuration.division.grams).rounded() == 3850)
        #expect(abs(configuration.zeroRange - 7.7) < 1e-9, "±2 %: zero-setting and tracking span 4 % of Max")
        #expect(abs(configuration.overloadLimit - 385.9) < 1e-9)
    }

    @Test("the rounded value is never more than half a division from the high-resolution value")
    func roundingBound() async {
        await propertyCheck(input: Gen.double(in: -1_000...1_000), Gen.element(of: [1, 2, 5]), Gen.int(in: -3...1)) {
            grams, mantissa, exponent in
            let division = try Division(mantissa: mantissa!, exponent: exponent)
            let rounded = division.round(grams)
            #expect(abs(rounded.grams - grams) <= division.grams / 2 * (1 + 1e-9) + 1e-12)
            #expect(Double(division.format(divisions: rounded.divisions)) == rounded.grams)
        }
    }

    /// The formatter before it wrote digits into a buffer: the reference the fast one must match.
    static func referenceText(_ division: Division, divisions: Int64) -> String {
        let units = divisions * Int64(division.mantissa)
        var text: String
        if division.exponent >= 0 {
            var scaled = units.magnitude
            for _ in 0..<division.exponent { scaled *= 10 }
            text = String(scaled)
        } else {
            var digits = String(units.magnitude)
            let places = -division.exponent
            if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
            let split = digits.index(digits.endIndex, offsetBy: -places)
            text = digits[..<split] + "." + digits[split...]
        }
        return units < 0 ? "-" + text : text
    }

    @Test("the display text written digit by digit is the reference formatter's, for every division and count")
    func formatMatchesReference() async {
        let counts = Gen.int(in: -2_000_000_000...2_000_000_000)
        await propertyCheck(input: counts, Gen.element(of: [1, 2, 5]), Gen.int(in: -6...3)) {
            count, mantissa, exponent in
            let division = try Division(mantissa: mantissa!, exponent: exponent)
            let expected = Self.referenceText(division, divisions: Int64(count))
            #expect(division.format(divisions: Int64(count)) == expected, "\(count) × \(division)")
            #expect(division.format(divisions: Int64(count), suffix: " g") == expected + " g", "\(count) × \(division)")
        }
        for exponent in -6...3 {
            for count: Int64 in [0, 1, -1, 9, 10, -10, 99, 100, 12345, -999_999, Int64(Int32.max)] {
                let division = try! Division(mantissa: 5, exponent: exponent)
                #expect(
                    division.format(divisions: count) == Self.referenceText(division, divisions: count),
                    "\(count) × \(division)")
            }
        }
    }
}
