import PlumCore
import PlumProtocol

/// The picture `plumscale watch` draws: one row per sensor with a bar whose length is the share
/// of full scale, coloured with the ForceSketch hue, the weight and percentage, a stable marker,
/// the heaviest pan in yellow (the Plum-O-Meter) and the max-force cue.
///
/// Pure: it turns what is known into lines of text, so it is tested without a terminal.
package struct Gauge {
    /// How much colour the terminal shows.
    package enum Colour: Equatable {
        /// No escape sequences at all: not a terminal, TERM=dumb, or NO_COLOR.
        case none
        /// Yellow and bold (SGR 33, 1), but no hue: a basic ANSI terminal.
        case basic
        /// 256 colours: the hue is the nearest of the 6×6×6 cube.
        case palette256
        /// 24-bit colour (COLORTERM=truecolor or 24bit).
        case trueColour
    }

    /// What the gauge knows about one sensor.
    package struct Row {
        package var sensor: String
        package var report: WeightReport?
        /// A sensor state other than ok (fault, not-ready …) with its reason.
        package var trouble: String?
        /// The max-force cue fired this recently, in seconds; nil when not recently.
        package var cueAge: Double?

        package init(sensor: String, report: WeightReport? = nil, trouble: String? = nil, cueAge: Double? = nil) {
            self.sensor = sensor
            self.report = report
            self.trouble = trouble
            self.cueAge = cueAge
        }
    }

    package var colour: Colour
    package var unit: MassUnit = .gram

    package init(colour: Colour, unit: MassUnit = .gram) {
        self.colour = colour
        self.unit = unit
    }
    /// How long the cue marker stays after a max-force cue, in seconds.
    package static let cueShown = 1.5

    /// The lines for `rows`, none wider than `columns` visible characters: a wrapped line would
    /// break redrawing in place.
    package func lines(_ rows: [Row], columns: Int) -> [String] {
        let nameWidth = min(16, rows.map(\.sensor.count).max() ?? 4)
        // name, two spaces, bar, two spaces, weight (12), two spaces, percent (7), two spaces, flags (≤ 24)
        let fixed = nameWidth + 2 + 2 + 12 + 2 + 7 + 2 + 24
        let barWidth = min(40, columns - fixed)
        return rows.map { row in
            var row = row
            // One pan is always the heaviest of one: say it only when there is a choice.
            if rows.count == 1 { row.report?.heaviest = false }
            return render(segments(row, nameWidth: nameWidth, barWidth: barWidth >= 8 ? barWidth : 0), columns: columns)
        }
    }

    /// A piece of a line: its text and the SGR parameters that colour it (nil: plain).
    package typealias Segment = (text: String, sgr: String?)

    private func segments(_ row: Row, nameWidth: Int, barWidth: Int) -> [Segment] {
        let name = String(row.sensor.prefix(nameWidth)).padding(to: nameWidth)
        guard let report = row.report, row.trouble == nil else {
            return [(name, "1"), ("  ", nil), (row.trouble ?? "waiting for the first reading…", "31")]
        }
        var parts: [Segment] = [(name, report.heaviest ? "1;33" : "1")]
        if barWidth > 0 { parts += [("  ", nil)] + bar(report, width: barWidth) }
        let weight = ReadingText.weight(report, unit: unit).leftPadding(to: 12)
        parts.append(("  ", nil))
        parts.append((weight, report.heaviest ? "1;33" : report.overload ? "1;31" : nil))
        parts.append(
            ("  " + ReadingText.percent(report).leftPadding(to: 7) + "  " + (report.stable ? "stable" : "~"), nil))
        if report.heaviest { parts.append((" ◀ heaviest", "33")) }
        if let age = row.cueAge, age < Self.cueShown { parts.append((" ♪ MAX", "1;35")) }
        return parts
    }

    /// Joins segments with their colours, cutting at `columns` visible characters.
    package func render(_ segments: [Segment], columns: Int) -> String {
        var text = ""
        var left = columns
        for (raw, sgr) in segments where left > 0 {
            // Our colours around it; what came from the wire in it escaped (WireText).
            let piece = WireText.escaped(raw)
            let shown = piece.count > left ? String(piece.prefix(left)) : piece
            left -= shown.count
            if let sgr, colour != .none { text += "\u{1B}[\(sgr)m\(shown)\u{1B}[0m" } else { text += shown }
        }
        return text
    }

    /// A bar of `width` cells, in eighths of a cell, coloured with the report's hue.
    package func bar(_ report: WeightReport, width: Int) -> [Segment] {
        let fraction = report.overload ? 1 : min(1, max(0, (report.percent ?? 0) / 100))
        let eighths = Int((fraction * Double(width * 8)).rounded())
        var filled = String(repeating: "█", count: eighths / 8)
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        filled += partial
        let cells = eighths / 8 + (partial.isEmpty ? 0 : 1)
        let rest = String(repeating: "·", count: width - cells)
        switch colour {
        case .none, .basic:
            return [(filled + rest, nil)]
        case .palette256, .trueColour:
            return [(filled, hueParameters(report.rgb)), (rest, "2")]
        }
    }

    /// The SGR parameters of the foreground for `#rrggbb` in this terminal's colours.
    package func hueParameters(_ rgb: String) -> String? {
        let hex = rgb.hasPrefix("#") ? rgb.dropFirst() : Substring(rgb)
        guard hex.count == 6, let value = Int(hex, radix: 16) else { return nil }
        let (r, g, b) = ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
        if colour == .trueColour { return "38;2;\(r);\(g);\(b)" }
        let cube = { (channel: Int) in (channel * 5 + 127) / 255 }
        return "38;5;\(16 + 36 * cube(r) + 6 * cube(g) + cube(b))"
    }
}
