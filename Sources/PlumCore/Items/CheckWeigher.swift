/// Check-weighing: a target with a tolerance below and above; each stable reading is under, ok
/// or over (docs/items.md).
///
/// The verdict is judged in whole divisions on the stable net rounded once to d
/// (``Reading/judgedDivisions``), the value counting judges too: a target of 100 g − 0.5 g
/// passes a load of 99.5 g. Not on the display, whose hysteresis could hold 99.5 g while the
/// load was 99.43 g, nor on a moving load.
///
/// Below Min (``minimumWeight``, OIML R 76-1 table 3) there is no verdict, the empty pan
/// included, and the assessment says why; an overload is `over`. A target whose lower limit
/// lies below Min is refused, since every load it would pass there has no result.
public struct CheckWeigher: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable, Codable {
        case under, ok, over
    }

    /// What a reading is found to be: a verdict, or why there is none, and whether it lies
    /// within 1 d of a limit (``borderline``), where the next division decides.
    public struct Assessment: Hashable, Sendable {
        public var verdict: Verdict?
        /// Within 1 d of target − minus or target + plus.
        public var borderline: Bool
        /// Why a stable reading has no verdict, such as `below the minimum weight 2.0 g`.
        public var withheld: String?
    }

    public let targetGrams: Double
    /// How far below the target is still ok, in grams (≥ 0).
    public let minusGrams: Double
    /// How far above the target is still ok, in grams (≥ 0).
    public let plusGrams: Double
    /// Min in grams: no verdict below it (0: none).
    public let minimumWeight: Double

    /// - Throws: a ``Refusal`` for a target or tolerance that is no weight, and for a lower
    ///   limit below `minimumWeight`, naming the limit, Min and what to do.
    public init(target: Double, minus: Double, plus: Double, minimumWeight: Double = 0) throws(Refusal) {
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
        let lower = target - minus
        guard lower >= minimumWeight - 1e-9 else {
            throw Refusal(
                .invalidWeight,
                "check-weighing lower limit \(Self.text(lower)) g (target \(Self.text(target)) g − "
                    + "\(Self.text(minus)) g) is below the minimum weight \(Self.text(minimumWeight)) g",
                hint: "below Min the scale gives no result; set target − minus to "
                    + "\(Self.text(minimumWeight)) g or more, or lower min_weight_divisions")
        }
        targetGrams = target
        minusGrams = minus
        plusGrams = plus
        self.minimumWeight = minimumWeight
    }

    /// The verdict on a stable reading; nil when the reading is in motion, below Min or shows
    /// no weight, since a verdict there would be a guess. An overload is `over`.
    public func judge(_ reading: Reading) -> Verdict? { assess(reading)?.verdict }

    /// The assessment of `reading`; nil while the load moves (or the display shows neither a
    /// weight nor an overload).
    public func assess(_ reading: Reading) -> Assessment? {
        if reading.isOverload { return Assessment(verdict: .over, borderline: false, withheld: nil) }
        guard let judged = reading.judgedDivisions else { return nil }
        let d = reading.division
        let grams = d.grams(divisions: judged)
        guard judged > 0 else {
            let why = judged == 0 ? "the pan is empty" : "the net is below zero"
            return Assessment(verdict: nil, borderline: false, withheld: why)
        }
        guard grams >= minimumWeight - 1e-9 else {
            return Assessment(
                verdict: nil, borderline: false,
                withheld: "below the minimum weight \(d.format(minimumWeight)) g")
        }
        return Assessment(
            verdict: judge(divisions: judged, division: d), borderline: isBorderline(divisions: judged, division: d),
            withheld: nil)
    }

    /// Whether a weight of `divisions` lies within 1 d of a limit: one division's difference in
    /// the load would change its verdict, or keep it at the edge (R 76-1 gives a result to the
    /// division, so the next division decides).
    public func isBorderline(divisions: Int64, division: Division) -> Bool {
        let shown = Double(divisions)
        let d = division.grams
        let lower = (targetGrams - minusGrams) / d
        let upper = (targetGrams + plusGrams) / d
        return abs(shown - lower) <= 1 + 1e-9 || abs(shown - upper) <= 1 + 1e-9
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

    /// Grams to at most four decimals, without trailing zeros: 1.5, 2, 0.25.
    private static func text(_ grams: Double) -> String {
        var text = FixedPoint.text(grams, decimals: 4)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
