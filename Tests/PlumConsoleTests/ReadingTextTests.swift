import Foundation
import PlumConsole
import PlumCore
import PlumProtocol
import Testing

@Suite("plumscale read --unit: the engine's rounding, the daemon's division")
struct ReadingTextTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var division: Double
        var grams: Double
        var unit: MassUnit
        var testDescription: String { "\(grams) g at d = \(division) g in \(unit.symbol)" }
    }

    static let cases: [Case] = [0.2, 0.5, 2, 5].flatMap { division in
        [152.37, 7.7, 999.9, 0.04].flatMap { grams in
            MassUnit.allCases.map { Case(division: division, grams: grams, unit: $0) }
        }
    }

    /// A WEIGHT report as a daemon with division `d` sends it.
    static func report(grams: Double, division: Double?, display: String) throws -> WeightReport {
        var json = #"{"class":"WEIGHT","sensor":"pan","time":0,"grams":\#(grams),"display":"\#(display)","unit":"g","#
        json += #""percent":40,"stable":true,"overload":false,"underload":false,"zero":false,"tare":0,"#
        json += ##""heaviest":false,"hue":0,"rgb":"#ff0000","calibrated":true,"signal":0"##
        if let division { json += #","division":\#(division)"# }
        guard case .weight(let report) = try Report.decode((json + "}")[...]) else {
            throw FixtureFailure("not a WEIGHT report: \(json)")
        }
        return report
    }

    @Test(
        "a division of 0.2, 0.5, 2 or 5 g shows the displayed value, converted with a step no coarser than d",
        arguments: cases)
    func everyUnit(_ test: Case) throws {
        // Independently of PlumCore: round to the division, convert, and print with the fewest
        // decimals whose last digit is no coarser than one division in that unit.
        let rounded = (test.grams / test.division).rounded(.toNearestOrAwayFromZero) * test.division
        let displayDecimals = test.division < 1 ? 1 : 0
        let display = String(format: "%.\(displayDecimals)f g", rounded)
        let report = try Self.report(grams: test.grams, division: test.division, display: display)
        let unitGrams = [MassUnit.gram: "1", .ounce: "28.349523125", .pound: "453.59237", .carat: "0.2"][test.unit]!
        let decimals = max(0, Int(ceil(-log10(test.division / Double(unitGrams)!) - 1e-12)))
        // In exact decimal arithmetic, halves away from zero: 152.5 g is 762.5 ct, shown as 763.
        var value = Decimal(string: display.dropLast(2).description)! / Decimal(string: unitGrams)!
        var shownValue = Decimal()
        NSDecimalRound(&shownValue, &value, decimals, .plain)
        let digits = String(format: "%.\(decimals)f", NSDecimalNumber(decimal: shownValue).doubleValue)
        let expected = test.unit == .gram ? display : "\(digits) \(test.unit.symbol)"
        let shown = ReadingText.weight(report, unit: test.unit)
        #expect(shown == expected, "\(test.testDescription): showed \(shown), the displayed \(display) is \(expected)")
    }

    @Test("from a daemon that does not send its division, the step is read from the display text")
    func olderDaemon() throws {
        let report = try Self.report(grams: 152.37, division: nil, display: "152.4 g")
        let shown = ReadingText.weight(report, unit: .ounce)
        #expect(shown == "5.376 oz", "152.4 g at the 0.1 g its display shows is 5.376 oz, not \(shown)")
    }

    @Test(
        "the wizard names a fifth of the configured capacity, not of the usual 385 g",
        arguments: [
            (385.0, "77 g of its 385 g"), (5000, "1000 g of its 5000 g"), (20, "4.0 g of its 20 g")
        ])
    func wizardSpan(capacity: Double, expected: String) {
        let span = CalibrationText.span(capacity)
        #expect(span == expected, "capacity \(capacity) g: \(span)")
        #expect(
            CalibrationText.span(nil) == "a fifth of the sensor's capacity",
            "with no capacity reported: \(CalibrationText.span(nil))")
    }

    @Test("a borderline verdict and a withheld count are printed as the daemon sends them")
    func borderlineAndWithheld() throws {
        var json = #"{"class":"WEIGHT","sensor":"pan","time":0,"grams":35.0,"display":"35.0 g","unit":"g","#
        json += #""percent":9,"stable":true,"overload":false,"underload":false,"zero":false,"tare":0,"#
        json += ##""heaviest":false,"hue":0,"rgb":"#ff0000","calibrated":true,"signal":0,"division":0.1,"##
        json += #""check":"ok","borderline":true}"#
        guard case .weight(let borderline) = try Report.decode(json[...]) else { throw FixtureFailure(json) }
        #expect(ReadingText.flags(borderline).suffix(2) == ["OK", "borderline"], "\(ReadingText.flags(borderline))")

        var empty = try Self.report(grams: 0, division: 0.1, display: "0.0 g")
        empty.withheld = "the pan is empty"
        #expect(ReadingText.flags(empty).last == "(no verdict: the pan is empty)", "\(ReadingText.flags(empty))")
        #expect(!ReadingText.flags(empty).contains("borderline"))
    }
}

struct FixtureFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
