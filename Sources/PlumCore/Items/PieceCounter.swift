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
        /// A stable load given no count, and why: below Min (the empty pan included).
        case withheld(reason: String)
    }

    /// How far net / unit may lie from a whole number and still count: 0.3 of a piece.
    public static let tolerance = 0.3
    /// Below this many divisions per piece the count is a matter of rounding noise.
    public static let smallestUnitDivisions = 10.0

    /// The reference weight of one piece in grams.
    public private(set) var unitGrams: Double
    /// How many pieces the reference was taken from (more after an ``optimize(_:)``).
    public private(set) var referencePieces: Int
    /// Reference optimisation: whether a larger, unambiguous count replaces the reference
    /// (``optimize(_:)``); off unless asked for.
    public var optimizes = false
    /// How far net / unit may lie from a whole number for a count to become the reference: a
    /// third of ``tolerance``, so only a count with no doubt about it is taken.
    public static let optimisationTolerance = 0.1
    /// Set when one piece weighs under 10 d: the count is then unreliable, and the warning says
    /// so and what to do.
    public let warning: String?
    /// Min in grams: no count below it (0: none).
    public let minimumWeight: Double

    /// Takes the reference from `net` grams of `pieces` pieces.
    ///
    /// - Throws: a ``Refusal`` for no pieces or no load, for a reference below `minimumWeight`
    ///   (Min: a weighing below it is no result, so neither is a reference taken from it), and
    ///   for one piece under 1 d, which the scale cannot tell from none.
    public init(net: Double, pieces: Int, division: Division, minimumWeight: Double = 0) throws(Refusal) {
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
        guard net >= minimumWeight - 1e-9 else {
            throw Refusal(
                .invalidWeight,
                "a piece-count reference of \(division.format(net)) g is below the minimum weight "
                    + "\(division.format(minimumWeight)) g",
                hint: "place more pieces, \(division.format(minimumWeight)) g or more in all, and ask again")
        }
        guard net / Double(pieces) >= division.grams - 1e-9 else {
            throw Refusal(
                .invalidWeight,
                "one piece of the reference weighs \(FixedPoint.text(net / Double(pieces), decimals: 4)) g, "
                    + "under the division \(division.format(division.grams)) g",
                hint: "count pieces of 1 d or more, or weigh on a finer division")
        }
        try self.init(
            unitGrams: net / Double(pieces), pieces: pieces, division: division, minimumWeight: minimumWeight)
    }

    /// A reference kept over a restart: one piece's weight as it was taken, not weighed again.
    public init(unitGrams: Double, pieces: Int, division: Division, minimumWeight: Double = 0) throws(Refusal) {
        guard pieces >= 1, unitGrams.isFinite, unitGrams > 0 else {
            throw Refusal(
                .invalidWeight, "a piece-count reference of \(pieces) pieces of \(unitGrams) g is not valid",
                hint: "take the reference again with the pieces on the pan")
        }
        self.unitGrams = unitGrams
        self.minimumWeight = minimumWeight
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
        guard let judged = reading.judgedDivisions else { return nil }
        let net = reading.division.grams(divisions: judged)
        guard judged > 0, net >= minimumWeight - 1e-9 else {
            return .withheld(
                reason: judged > 0
                    ? "below the minimum weight \(reading.division.format(minimumWeight)) g"
                    : judged == 0 ? "the pan is empty" : "the net is below zero")
        }
        return count(net: net)
    }

    /// Reference optimisation, as counting scales do: once the pan holds at least twice the
    /// reference's pieces, counted unambiguously (within ``optimisationTolerance`` of a whole
    /// number), that count becomes the reference, and one piece's weight is taken from it. The
    /// error of one piece's weight falls with the number of pieces it was taken from, so the
    /// count of a large batch stops drifting by the reference's own error.
    ///
    /// Nothing happens unless ``optimizes`` is set. Judged on the same value the count is: the
    /// stable net rounded once to d.
    /// - Returns: true when the reference was replaced.
    public mutating func optimize(_ reading: Reading) -> Bool {
        guard optimizes, let judged = reading.judgedDivisions, judged > 0 else { return false }
        let net = reading.division.grams(divisions: judged)
        guard net >= minimumWeight - 1e-9, case .pieces(let pieces) = count(net: net),
            pieces >= 2 * referencePieces, abs(net / unitGrams - Double(pieces)) <= Self.optimisationTolerance
        else { return false }
        unitGrams = net / Double(pieces)
        referencePieces = pieces
        return true
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
