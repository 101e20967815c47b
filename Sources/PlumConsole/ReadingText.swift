import PlumCore
import PlumProtocol

/// How a WEIGHT report reads to a person: the weight in the chosen unit, "100%+" past full
/// scale (never a wrong number), the percentage of full scale and the flags.
package enum ReadingText {
    /// The weight, or what stands in for it.
    package static func weight(_ report: WeightReport, unit: MassUnit) -> String {
        if report.overload { return "100%+" }
        if report.underload { return "underload" }
        guard let grams = report.grams else { return "no signal" }
        guard report.calibrated else { return "uncalibrated" }
        if unit == .gram { return report.display }
        let division = division(of: report)
        // The displayed count of divisions (protocol 1.3) is the number the scale shows; the
        // grams of an older daemon are rounded to d first.
        if let divisions = report.divisions {
            return unit.text(grams: Double(divisions) * division.grams, step: division.grams)
        }
        return text(grams: grams, division: division, unit: unit)
    }

    /// `grams` as the engine shows it in `unit`: rounded to the division first, as
    /// `Reading.text(in:)` does, then converted with just enough decimals that one step is no
    /// coarser than the division. Converting the unrounded grams would show a value the scale
    /// never displays, and a division guessed from the display text would be wrong for 0.2 g,
    /// 0.5 g, 2 g or 5 g.
    package static func text(grams: Double, division: Division, unit: MassUnit) -> String {
        unit.text(grams: division.round(grams).grams, step: division.grams)
    }

    /// The division the daemon rounds `report` to: the report's own, or (from an older daemon)
    /// the step its display text shows.
    package static func division(of report: WeightReport) -> Division {
        if let grams = report.division, let division = try? Division(grams: grams) { return division }
        return (try? Division(grams: step(of: report.display))) ?? .standard
    }

    /// The step a display text shows: "152.3 g" is 0.1 g.
    package static func step(of display: String) -> Double {
        let number = display.prefix { $0 != " " }
        guard let dot = number.firstIndex(of: ".") else { return 1 }
        var step = 1.0
        for _ in number[number.index(after: dot)...] { step /= 10 }
        return step
    }

    /// "39.6 %", or "100%+" past full scale.
    package static func percent(_ report: WeightReport) -> String {
        if report.overload { return "100%+" }
        guard let percent = report.percent else { return "–" }
        return FixedPoint.text(percent, decimals: 1) + " %"
    }

    /// The words after the numbers: stable, heaviest, zero, tare, why it is uncalibrated, the
    /// piece count and the check-weighing verdict, whether it is borderline, and why a count or
    /// verdict is withheld.
    /// `several`: more than one pan is shown, so naming the heaviest means something.
    package static func flags(_ report: WeightReport, several: Bool = true) -> [String] {
        var words: [String] = [report.stable ? "stable" : "moving"]
        if report.heaviest && several { words.append("heaviest") }
        if report.zero { words.append("zero") }
        if report.tare != 0 { words.append("tare \(division(of: report).format(report.tare)) g") }
        if !report.calibrated, let reason = report.reason { words.append("(\(reason))") }
        if let count = report.count { words.append("\(count) pcs") }
        if report.countRatio != nil { words.append("count ambiguous") }
        if let check = report.check { words.append(check.uppercased()) }
        // Within 1 d of a check limit: one division decides, so re-weigh before trusting it.
        if report.borderline { words.append("borderline") }
        if report.countReferenceUpdated { words.append("reference updated") }
        if let withheld = report.withheld { words.append("(no verdict: \(withheld))") }
        return words
    }

    /// One line for a report: `left  152.3 g  39.6 %  stable heaviest`.
    package static func line(_ report: WeightReport, unit: MassUnit, nameWidth: Int, several: Bool = true) -> String {
        let name = report.sensor.padding(to: nameWidth)
        let weight = weight(report, unit: unit).leftPadding(to: 12)
        let percent = percent(report).leftPadding(to: 7)
        return "\(name)  \(weight)  \(percent)  \(flags(report, several: several).joined(separator: " "))"
    }
}

extension String {
    /// Padded with spaces on the right to `width` characters.
    package func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Padded with spaces on the left to `width` characters.
    package func leftPadding(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
