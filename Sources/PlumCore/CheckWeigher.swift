/// Check-weighing: a target with a tolerance below and above; each stable reading is under, ok
/// or over (docs/items.md).
///
/// The verdict is judged in whole divisions on the stable net rounded once to d
/// (``Reading/judgedDivisions``), the value counting judges too: a target of 100 g − 0.5 g
/// passes a load of 99.5 g. Not on the display, whose hysteresis could hold 99.5 g while the
/// load was 99.43 g, nor on a moving load.
public struct CheckWeigher: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable, Codable {
        case under, ok, over
    }

    public let targetGrams: Double
    /// How far below the target is still ok, in grams (≥ 0).
    public let minusGrams: Double
    /// How far above the target is still ok, in grams (≥ 0).
    public let plusGrams: Double

    public init(target: Double, minus: Double, plus: Double) throws(Refusal) {
        guard target.isFinite, target > 0 else {
            throw Refusal(
                .invalidWeight, "check-weighing target \(target) g is not a weight",
                hint: "set a target above 0 g")
        }
        guard minus.isFinite, plus.isFinite, minus >= 0, plus >= 0 else {
            throw Refusal(
                .invalidWeight, "check-weighing tolerances −\(minus) g / +\(plus) g must be 0 or more",
                hint: "give both tolerances as positive amounts, such as minus = 2, plus = 5")
        }
        targetGrams = target
        minusGrams = minus
        plusGrams = plus
    }

    /// The verdict on a stable reading; nil when the reading is in motion or shows no weight,
    /// since a verdict on a moving load would be a guess.
    public func judge(_ reading: Reading) -> Verdict? {
        guard let judged = reading.judgedDivisions else { return nil }
        return judge(divisions: judged, division: reading.division)
    }

    /// The verdict on a weight of `divisions` steps of `division`.
    public func judge(divisions: Int64, division: Division) -> Verdict {
        // The limits in divisions: the least shown weight that is not under and the greatest
        // that is not over. A limit on a multiple of d is itself ok; 1e-9 keeps 99.7 / 0.1 from
        // landing at 996.9999999999999.
        let d = division.grams
        let lowest = ((targetGrams - minusGrams) / d - 1e-9).rounded(.up)
        let highest = ((targetGrams + plusGrams) / d + 1e-9).rounded(.down)
        let shown = Double(divisions)
        if shown < lowest { return .under }
        if shown > highest { return .over }
        return .ok
    }
}
