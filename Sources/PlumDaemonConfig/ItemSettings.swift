internal import PlumSettings
internal import TOMLKit

/// How one sensor tells fruit apart (docs/items.md): the `[[sensor]]` keys `item_mode` and
/// `min_step_divisions`.
///
/// Kept as plain values here, so the configuration needs no engine; the station turns them into
/// PlumCore's `ItemDetection`, whose rules (a step of 2 d is the least it can see) these repeat
/// so that a bad value is refused with its file and line rather than when the daemon starts.
package struct ItemSettings: Hashable, Sendable {
    /// The two ways of weighing fruit one after another; the raw values are the file's words.
    package enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Place a fruit, read it, take it off.
        case oneAtATime = "one-at-a-time"
        /// Add fruit onto the pan, a crate or a bowl.
        case accumulate
    }

    package var mode: Mode
    /// N: the smallest rise or fall, in divisions, that is an item.
    package var minimumStepDivisions: Int

    /// The least and most a step may be: below 2 d the detector cannot tell a step from its own
    /// ±1 d tolerance; 100 000 d is the whole range of a 10 kg cell at 0.1 g.
    package static let stepRange = 2...100_000

    /// The defaults: `one-at-a-time`, 10 d (1 g at d = 0.1 g).
    package init(mode: Mode = .oneAtATime, minimumStepDivisions: Int = 10) {
        self.mode = mode
        self.minimumStepDivisions = minimumStepDivisions
    }

    /// Reads `item_mode` and `min_step_divisions` from a `[[sensor]]` table.
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        self.init()
        if let mode = try reader.choice("item_mode", Mode.allCases.map { ($0.rawValue, $0) }) {
            self.mode = mode
        }
        if let step = try reader.int("min_step_divisions") {
            guard Self.stepRange.contains(step) else {
                throw reader.error(
                    "min_step_divisions",
                    "min_step_divisions = \(step) is out of range; use \(Self.stepRange.lowerBound) to "
                        + "\(Self.stepRange.upperBound) divisions (10 d, 1 g at d = 0.1 g, is the default)")
            }
            minimumStepDivisions = step
        }
    }
}

/// One `[[class]]` band of the weight grading: a name and the least weight that belongs to it.
///
///     [[class]]
///     name = "large"
///     min_grams = 60
///
/// The bands hold for every sensor, lightest first; an item takes the class of the highest band
/// whose minimum its weight reaches (PlumCore's `WeightClasses`, whose rules are checked here
/// with the file and line of the band at fault).
package struct WeightClassSettings: Hashable, Sendable {
    package var name: String
    package var minimumGrams: Double
    /// The line of the `[[class]]` table, for messages about it.
    package var line: Int?

    package init(name: String, minimumGrams: Double, line: Int? = nil) {
        self.name = name
        self.minimumGrams = minimumGrams
        self.line = line
    }

    /// Every `[[class]]` of the file, in order, each above the one before.
    static func parseAll(table: TOMLTable, file: String, locator: SourceLocator) throws(ConfigurationError)
        -> [WeightClassSettings]
    {
        guard let value = table["class"] else { return [] }
        guard let array = value.array else {
            throw ConfigurationError(
                file: file, key: "class", message: "expected [[class]] tables, one per weight class, lightest first")
        }
        var classes: [WeightClassSettings] = []
        for index in 0..<array.count {
            let section = SourceLocator.Section.arrayElement("class", index: index)
            guard let classTable = array[index].table else {
                throw ConfigurationError(
                    file: file, line: locator.line(of: section), key: "class[\(index)]",
                    message: "expected a [[class]] table with name and min_grams")
            }
            var reader = TOMLReader(
                table: classTable, file: file, path: "class[\(index)]", locator: locator, section: section)
            let name = try reader.requiredString("name", example: "\"large\"")
            guard SensorConfiguration.isValidName(name) else {
                throw reader.error(
                    "name", "name = \"\(name)\" is not allowed; use letters, digits, '-' and '_' (1 to 32 characters)")
            }
            reader = TOMLReader(
                table: classTable, file: file, path: "class \"\(name)\"", locator: locator, section: section)
            _ = try reader.string("name")
            let minimum = try reader.double("min_grams")
            try reader.rejectUnknownKeys()
            guard let grams = minimum else {
                throw reader.error(
                    nil, "missing key min_grams; the least weight of class \(name), such as min_grams = 60")
            }
            guard grams.isFinite, grams >= 0 else {
                throw reader.error(
                    "min_grams", "min_grams = \(grams) is not allowed; use 0 or more grams, such as min_grams = 60")
            }
            let line = locator.line(of: section)
            if let earlier = classes.first(where: { $0.name == name }) {
                throw reader.error(
                    nil,
                    "the name \"\(name)\" is already used by the class on line \(earlier.line ?? 0); "
                        + "give each class its own name")
            }
            if let previous = classes.last, !(grams > previous.minimumGrams) {
                throw reader.error(
                    "min_grams",
                    "min_grams = \(grams) does not start above class \"\(previous.name)\" (min_grams = "
                        + "\(previous.minimumGrams)); list the classes lightest first, each min_grams above the one "
                        + "before")
            }
            classes.append(WeightClassSettings(name: name, minimumGrams: grams, line: line))
        }
        return classes
    }
}

extension WeightClassSettings {
    /// The band without where it was written: what a reload compares.
    package var withoutLine: WeightClassSettings { WeightClassSettings(name: name, minimumGrams: minimumGrams) }
}
