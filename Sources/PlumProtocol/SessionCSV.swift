/// A weighing session's items as CSV: `item,grams,class,flags,recorded_at`, one row per item,
/// grams with the division's decimals, flags joined with `;`.
///
/// One encoder for `plumscale session export --csv` and plumscale-web's
/// `GET /api/weighing/session.csv`, so a spreadsheet gets the same columns from either.
public enum SessionCSV {
    /// The header and a row per item (none when `session` carries no items).
    public static func text(_ session: SessionSummary) -> String {
        var text = "item,grams,class,flags,recorded_at\n"
        for item in session.items ?? [] {
            text +=
                "\(item.item),\(number(item.grams, division: session.division)),\(quoted(item.weightClass ?? "")),"
                + "\(item.flags.joined(separator: ";")),\(quoted(item.at))\n"
        }
        return text
    }

    /// `grams` with as many decimals as `division` has (0.1 g: one, 0.05 g: two).
    public static func number(_ grams: Double, division: Double) -> String {
        var decimals = 0
        var step = division
        while decimals < 6, (step - step.rounded()).magnitude > 1e-9 {
            step *= 10
            decimals += 1
        }
        // Fixed decimals, trailing zeros kept: 60.0, not 60 (the column reads as one format).
        guard grams.isFinite else { return "\(grams)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (grams.magnitude * scale).rounded()
        guard scaled < 9e15 else { return "\(grams)" }
        var digits = String(Int64(scaled))
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (grams < 0 && scaled > 0 ? "-" : "") + digits
    }

    /// A field with a comma or a quote, quoted as RFC 4180 says; others as they are.
    private static func quoted(_ text: String) -> String {
        guard text.contains(",") || text.contains("\"") || text.contains(where: \.isNewline) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
