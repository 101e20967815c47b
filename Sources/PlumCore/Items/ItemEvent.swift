/// One fruit put on or taken off a pan, as ``ItemDetector`` saw it: a step between two stable
/// levels of at least the configured minimum (docs/items.md).
///
/// Weights are whole divisions: the difference of two displayed levels, each already rounded to
/// d, so an item prints exactly as the display showed its two levels, never as 87.30000000000001.
public struct ItemEvent: Hashable, Sendable, Codable {
    /// Whether the step went up or down.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A rise from one stable level to a higher one: an item.
        case placed
        /// A fall: in `one-at-a-time` the end of the item on the pan; in `accumulate` a drop of
        /// whatever was lifted off.
        case removed
        /// A tare made the items on the pan a container: each placed item that was on it is
        /// taken back, as if never weighed (a bowl put on, then tared, is no fruit).
        case retracted
    }

    /// What the detector could not be sure of; an item with no flag was one clean step.
    public struct Flags: OptionSet, Hashable, Sendable, Codable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The step stopped on the way: the engine called the load stable, too briefly to be
        /// confirmed as a level, at least the minimum step from both ends. Typically two fruit
        /// placed within the settling time, reported as one item of their sum.
        public static let merged = Flags(rawValue: 1 << 0)
        /// `one-at-a-time` only: placed while the previous item was still on the pan, so it was
        /// weighed as the difference rather than from the empty pan.
        public static let stacked = Flags(rawValue: 1 << 1)
        /// Its weight lies within 1 d of a weight class's boundary: one division more or less
        /// would have classed it otherwise (``WeightClasses/isBorderline(grams:division:)``).
        public static let borderline = Flags(rawValue: 1 << 2)

        /// The flags' names, for logs and reports.
        public var names: [String] {
            var names: [String] = []
            if contains(.merged) { names.append("merged") }
            if contains(.stacked) { names.append("stacked") }
            if contains(.borderline) { names.append("borderline") }
            return names
        }
    }

    /// The sensor's configured id.
    public var sensor: String
    /// The event's number on this sensor, 1, 2, 3 … with no gaps: a client that sees a gap
    /// missed an event.
    public var sequence: Int
    /// The item's number: a new one for `placed`; for `removed` in `one-at-a-time` the item it
    /// ends; nil for a `removed` in `accumulate`, which cannot tell which fruit was lifted; for
    /// `retracted` the item taken back.
    public var item: Int?
    public var kind: Kind
    /// The item's weight (the size of the step, always positive) in divisions.
    public var divisions: Int64
    /// The gross level the pan settled at after the step, in divisions (for `retracted`, the
    /// gross when the tare was taken).
    public var grossAfterDivisions: Int64
    public var division: Division
    /// Monotonic nanoseconds of the reading that confirmed the new level.
    public var time: UInt64
    public var flags: Flags

    public init(
        sensor: String, sequence: Int, item: Int?, kind: Kind, divisions: Int64, grossAfterDivisions: Int64,
        division: Division, time: UInt64, flags: Flags = []
    ) {
        self.sensor = sensor
        self.sequence = sequence
        self.item = item
        self.kind = kind
        self.divisions = divisions
        self.grossAfterDivisions = grossAfterDivisions
        self.division = division
        self.time = time
        self.flags = flags
    }

    /// The item's weight in grams: the difference of the two stable levels, a multiple of d.
    public var weight: Double { division.grams(divisions: divisions) }
    /// The gross load after the step in grams.
    public var grossAfter: Double { division.grams(divisions: grossAfterDivisions) }
    /// The weight as the display prints it, such as `"87.3 g"`.
    public var weightText: String { division.format(divisions: divisions, suffix: " g") }
}
