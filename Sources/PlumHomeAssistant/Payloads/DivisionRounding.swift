/// The scale's division d, as the bridge uses it: how many decimals to show, and a weight rounded
/// to it.
package struct DivisionRounding: Hashable, Sendable {
    /// d in grams: 1, 2 or 5 × 10^k.
    package let grams: Double

    package init(grams: Double) { self.grams = grams }

    /// Decimals a weight shown to the division needs: 0.1 and 0.5 g → 1, 0.05 g → 2, 1 g and
    /// 10 g → 0. Home Assistant's `suggested_display_precision`.
    package var decimals: Int {
        var decimals = 0
        var scaled = grams
        while decimals < 6 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, scaled) {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }

    /// `value` rounded to the nearest multiple of d, and cleaned of binary fractions
    /// (152.20000000000002 → 152.2) and of negative zero, so the JSON reads as the display does.
    package func round(_ value: Double) -> Double {
        let steps = (value / grams).rounded()
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        return (steps * grams * power).rounded() / power + 0.0
    }
}
