/// Counting by weight: a reference unit weight from N pieces, then count = round(net / unit),
/// saying "ambiguous" rather than guessing when the ratio is far from a whole number
/// (docs/items.md).
public struct PieceCounter: Hashable, Sendable {
    /// What a net load counts as.
    public enum Count: Hashable, Sendable {
        /// A whole number of pieces: the ratio was within ``PieceCounter/tolerance`` of it.
        case pieces(Int)
        /// The ratio net / unit, more than the tolerance from every whole number: a piece of
        /// another size, or something else on the pan.
        case ambiguous(ratio: Double)
    }

    /// How far net / unit may lie from a whole number and still count: 0.3 of a piece.
    public static let tolerance = 0.3
    /// Below this many divisions per piece the count is a matter of rounding noise.
    public static let smallestUnitDivisions = 10.0

    /// The reference weight of one piece in grams.
    public let unitGrams: Double
    /// How many pieces the reference was taken from.
    public let referencePieces: Int
    /// Set when one piece weighs under 10 d: the count is then unreliable, and the warning says
    /// so and what to do.
    public let warning: String?

    /// Takes the reference from `net` grams of `pieces` pieces.
    public init(net: Double, pieces: Int, division: Division) throws(Refusal) {
        guard pieces >= 1 else {
            throw Refusal(
                .invalidWeight, "a piece-count reference needs at least 1 piece, not \(pieces)",
                hint: "place a known number of pieces, 10 or more for a better reference")
        }
        guard net.isFinite, net > 0 else {
            throw Refusal(
                .invalidWeight, "a piece-count reference needs a load on the pan, the net is \(division.format(net)) g",
                hint: "place the \(pieces) pieces and wait for a stable reading")
        }
        try self.init(unitGrams: net / Double(pieces), pieces: pieces, division: division)
    }

    /// A reference kept over a restart: one piece's weight as it was taken, not weighed again.
    public init(unitGrams: Double, pieces: Int, division: Division) throws(Refusal) {
        guard pieces >= 1, unitGrams.isFinite, unitGrams > 0 else {
            throw Refusal(
                .invalidWeight, "a piece-count reference of \(pieces) pieces of \(unitGrams) g is not valid",
                hint: "take the reference again with the pieces on the pan")
        }
        self.unitGrams = unitGrams
        referencePieces = pieces
        let unitDivisions = unitGrams / division.grams
        if unitDivisions < Self.smallestUnitDivisions {
            warning =
                "one piece weighs \(FixedPoint.text(unitDivisions, decimals: 1)) d, under "
                + "\(Int(Self.smallestUnitDivisions)) d: counts may be off by one; weigh on a finer division"
        } else {
            warning = nil
        }
    }

    /// The count of a stable reading, judged on its net rounded once to d
    /// (``Reading/judgedDivisions``), the value check-weighing judges; nil while the load moves
    /// or shows no weight.
    public func count(_ reading: Reading) -> Count? {
        reading.judgedDivisions.map { count(net: reading.division.grams(divisions: $0)) }
    }

    /// The count for `net` grams.
    public func count(net: Double) -> Count {
        let ratio = net / unitGrams
        let whole = ratio.rounded(.toNearestOrAwayFromZero)
        guard ratio.isFinite, abs(ratio - whole) <= Self.tolerance, whole >= 0, whole <= Double(Int32.max) else {
            return .ambiguous(ratio: ratio)
        }
        return .pieces(Int(whole))
    }
}
