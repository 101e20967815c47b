import PlumCore
import PlumProtocol

/// The calibration wizard's words: the span of the known weights, the fit's table, and the
/// advice when nothing checks the fit.
package enum CalibrationText {
    /// The least span of the known weights, a fifth of `capacity` (the sensor's full scale):
    /// "77 g of its 385 g". An older daemon does not say its capacity.
    package static func span(_ capacity: Double?) -> String {
        guard let capacity, capacity > 0 else { return "a fifth of the sensor's capacity" }
        let fifth = FixedPoint.text(capacity / 5, decimals: capacity / 5 < 10 ? 1 : 0)
        return "\(fifth) g of its \(FixedPoint.text(capacity, decimals: capacity < 10 ? 1 : 0)) g"
    }

    /// The fit as a table of known weights and residuals, then its quality.
    package static func table(_ fit: CalibrationReply) -> String {
        guard fit.ok, let grams = fit.grams, let residuals = fit.residuals else {
            return "   refused: \(fit.message ?? "no fit")"
        }
        var lines = ["   known weight    residual"]
        for (known, residual) in zip(grams, residuals) {
            let text = FixedPoint.text(residual, decimals: 2)
            let weight = (FixedPoint.text(known, decimals: 1) + " g").leftPadding(to: 12)
            lines.append("   \(weight)    \(text.hasPrefix("-") ? text : "+" + text) g")
        }
        lines.append("   quality: \(fit.quality ?? "?")")
        if let notice = fit.notice { lines.append("   note: \(notice)") }
        return lines.joined(separator: "\n")
    }

    /// Advice when nothing checks `fit`: zero and a single known weight fit exactly whatever
    /// was on the pan (graded "not checked"), so a third point, another known weight, is the
    /// only way to catch a weight typed wrong.
    package static func unchecked(_ fit: CalibrationReply) -> String? {
        guard let grams = fit.grams, Set(grams).count <= 2 else { return nil }
        return "Only zero and one known weight: nothing checks this fit (a weight typed wrong would still fit "
            + "exactly). Place a different known weight as a third point to check it."
    }
}
