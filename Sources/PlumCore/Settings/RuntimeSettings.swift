/// What a user set while the daemon runs, rather than in `plumscale.toml`: `[[alert]]`
/// thresholds and hysteresis, the library of named tares ("bowl" 212 g), and each sensor's
/// piece-count reference and check-weighing limits (``CountReference``, ``CheckLimits``). The daemon keeps
/// it in its state directory (`RuntimeSettingsStore` in PlumStore), so a restart or a reload keeps it.
///
/// An alert's runtime value wins over the file until the file's own value for it changes (an
/// edit is the newer decision) or until it is cleared; so each runtime value records the file's
/// value it replaced.
package struct RuntimeSettings: Codable, Hashable, Sendable {
    /// The values set at runtime for one `[[alert]]` rule, and the file's values they replaced.
    package struct AlertValues: Codable, Hashable, Sendable {
        /// The threshold in net grams; nil keeps the file's.
        package var threshold: Double?
        /// The hysteresis in grams; nil keeps the file's.
        package var hysteresis: Double?
        /// The file's threshold when ``threshold`` was set: a file that says otherwise now wins.
        package var fileThreshold: Double
        /// The file's hysteresis when ``hysteresis`` was set.
        package var fileHysteresis: Double

        package init(threshold: Double?, hysteresis: Double?, fileThreshold: Double, fileHysteresis: Double) {
            self.threshold = threshold
            self.hysteresis = hysteresis
            self.fileThreshold = fileThreshold
            self.fileHysteresis = fileHysteresis
        }
    }

    /// Runtime values by alert name.
    package var alerts: [String: AlertValues]
    /// Named tares: grams by name.
    package var tares: [String: Double]
    /// Piece-count references by sensor (``CountReference``).
    package var counts: [String: CountReference]
    /// Check-weighing limits by sensor (``CheckLimits``).
    package var checks: [String: CheckLimits]

    package init(
        alerts: [String: AlertValues] = [:], tares: [String: Double] = [:], counts: [String: CountReference] = [:],
        checks: [String: CheckLimits] = [:]
    ) {
        self.alerts = alerts
        self.tares = tares
        self.counts = counts
        self.checks = checks
    }

    /// How many named tares the library holds at most: a short list to pick from on a phone.
    package static let tareLimit = 32

    /// A tare's name is 1 to 32 letters, digits, spaces, `-`, `_` or `.`, not starting or ending
    /// with a space: it becomes an option of Home Assistant's select and a CLI argument. `none`
    /// in any case is refused: Home Assistant's MQTT select reads that payload as "no option", so
    /// a tare of that name would show as unknown while in use.
    package static func tareNameProblem(_ name: String) -> String? {
        if name.lowercased() == "none" {
            return "tare name \"\(name)\" is not allowed: Home Assistant reads \"none\" as no choice; "
                + "choose another name, such as \"empty bowl\""
        }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || " -_.".unicodeScalars.contains($0)
        }
        guard (1...32).contains(name.count), allowed, name.first != " ", name.last != " " else {
            return "tare name \"\(name)\" is not allowed; use 1 to 32 letters, digits, spaces, '-', '_' or '.', "
                + "such as \"bowl\""
        }
        return nil
    }

    /// Keeps `grams` as the named tare `name` (replacing one of the same name).
    /// - Returns: a refusal saying what was wrong, or nil when saved.
    package mutating func saveTare(_ name: String, grams: Double) -> Refusal? {
        if let problem = Self.tareNameProblem(name) {
            return Refusal(.invalidConfiguration, problem, hint: "choose another name")
        }
        guard grams.isFinite, grams > 0 else {
            return Refusal(
                .invalidWeight, "named tare \"\(name)\" of \(grams) g refused: a tare is more than 0 g",
                hint: "tare the empty container first, or give its weight in grams")
        }
        guard tares[name] != nil || tares.count < Self.tareLimit else {
            return Refusal(
                .invalidConfiguration, "the library holds \(Self.tareLimit) named tares already",
                hint: "delete one you no longer use (plumscale tare --delete NAME)")
        }
        tares[name] = grams
        return nil
    }
}
