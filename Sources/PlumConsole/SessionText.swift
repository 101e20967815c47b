import PlumCore
import PlumProtocol

/// A session in words, for the terminal and for CSV.
package enum SessionText {
    /// One line per session for `list`.
    package static func line(_ session: SessionSummary) -> String {
        let state = session.stopped.map { "stopped \($0)" } ?? "running"
        return "\(session.name)  \(session.sensor)  started \(session.started)  \(state)  \(items(session.count))  "
            + grams(session.total, session.division)
    }

    /// The running session under `watch`'s gauge: its count, total and class histogram.
    package static func running(_ session: SessionSummary) -> String {
        // Drawn straight onto the watch screen, not through print: the name is escaped here.
        "session \(WireText.escaped(session.name)): \(items(session.count)), \(grams(session.total, session.division))"
            + (session.classes.isEmpty ? "" : "  " + histogram(session))
    }

    /// The figures, a few lines.
    package static func figures(_ session: SessionSummary) -> String {
        var lines = [line(session)]
        if let mean = session.mean, let minimum = session.minimum, let maximum = session.maximum {
            var figures =
                "  mean \(grams(mean, session.division))  min \(grams(minimum, session.division))  "
                + "max \(grams(maximum, session.division))"
            if let heaviest = session.heaviestItem { figures += " (item \(heaviest))" }
            if let deviation = session.standardDeviation {
                figures += "  std dev \(grams(deviation, session.division))"
            }
            lines.append(figures)
        }
        if !session.classes.isEmpty {
            lines.append("  " + histogram(session))
        }
        return lines.joined(separator: "\n")
    }

    /// Per class a count and a bar of up to 10 blocks scaled to the largest class:
    /// `small 4 ██  medium 20 ██████████  large 6 ███`.
    package static func histogram(_ session: SessionSummary) -> String {
        let largest = max(1, session.classes.map(\.count).max() ?? 1)
        var parts = session.classes.map { band in
            let blocks = band.count == 0 ? 0 : max(1, (band.count * 10 + largest / 2) / largest)
            return "\(band.name) \(band.count)" + (blocks == 0 ? "" : " " + String(repeating: "█", count: blocks))
        }
        if session.unclassified > 0 { parts.append("none \(session.unclassified)") }
        return parts.joined(separator: "  ")
    }

    package static func item(_ item: SessionSummary.Item, division: Double) -> String {
        var line = "  #\(item.item)  \(grams(item.grams, division))"
        if let weightClass = item.weightClass { line += "  \(weightClass)" }
        if !item.flags.isEmpty { line += "  (\(item.flags.joined(separator: ", ")))" }
        return line + "  \(item.at)"
    }

    /// The items as CSV, a header first; flags joined with `;` (PlumProtocol's ``SessionCSV``, which
    /// plumscale-web's export uses too).
    package static func csv(_ session: SessionSummary) -> String { SessionCSV.text(session) }

    /// "1 item", "30 items".
    package static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    /// `grams` printed with the decimals of `division`, and " g".
    package static func grams(_ grams: Double, _ division: Double) -> String { number(grams, division) + " g" }

    package static func number(_ grams: Double, _ division: Double) -> String {
        var decimals = 0
        var step = division
        while decimals < 6, (step - step.rounded()).magnitude > 1e-9 {
            step *= 10
            decimals += 1
        }
        return FixedPoint.text(grams, decimals: decimals)
    }
}
