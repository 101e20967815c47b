/// The piece-count references and check-weighing limits kept over a restart, in the same file
/// as the alert values and named tares: they are settings a user made while the daemon ran,
/// saved at the same moment (before the reply) and restored at the same moment (at start), so
/// one file keeps one rule for all of them, with no second file to seal, clean up and restore.
///
/// Both are written only when some sensor has one, so a file without them stays byte for byte
/// the file earlier versions wrote, and an earlier version reading a newer file ignores them.
extension RuntimeSettings {
    /// A sensor's piece-count reference (`?COUNT`): one piece's weight and how many were weighed.
    package struct CountReference: Codable, Hashable, Sendable {
        package var unitGrams: Double
        package var pieces: Int
        /// Reference optimisation was asked for (`?COUNT` with `optimize`); absent when not, so
        /// a file without it is the file earlier versions wrote. Each update of the reference is
        /// saved, so a restart goes on from the latest one.
        package var optimize: Bool?

        package init(unitGrams: Double, pieces: Int, optimize: Bool = false) {
            self.unitGrams = unitGrams
            self.pieces = pieces
            self.optimize = optimize ? true : nil
        }

        /// The reference `counter` counts with now, and whether it optimises.
        package init(_ counter: PieceCounter) {
            self.init(unitGrams: counter.unitGrams, pieces: counter.referencePieces, optimize: counter.optimizes)
        }
    }

    /// A sensor's check-weighing limits (`?CHECK`) and whether an ok pulses the cue.
    package struct CheckLimits: Codable, Hashable, Sendable {
        package var target: Double
        package var minus: Double
        package var plus: Double
        package var cue: Bool

        package init(target: Double, minus: Double, plus: Double, cue: Bool) {
            self.target = target
            self.minus = minus
            self.plus = plus
            self.cue = cue
        }
    }

    private enum CodingKeys: String, CodingKey { case alerts, tares, counts, checks }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            alerts: try container.decode([String: AlertValues].self, forKey: .alerts),
            tares: try container.decode([String: Double].self, forKey: .tares),
            counts: try container.decodeIfPresent([String: CountReference].self, forKey: .counts) ?? [:],
            checks: try container.decodeIfPresent([String: CheckLimits].self, forKey: .checks) ?? [:])
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(alerts, forKey: .alerts)
        try container.encode(tares, forKey: .tares)
        if !counts.isEmpty { try container.encode(counts, forKey: .counts) }
        if !checks.isEmpty { try container.encode(checks, forKey: .checks) }
    }
}
