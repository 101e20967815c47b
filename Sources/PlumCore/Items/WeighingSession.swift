/// A named run of items, such as one crate of plums: the items with their count, total, mean,
/// lightest and heaviest, standard deviation and count per weight class (docs/items.md).
///
/// It is a value a daemon keeps beside the ``ItemDetector`` and writes to disk after every
/// item, so a session survives a restart. Only the facts are encoded (name, times, division,
/// classes, items); the figures are recomputed from the items when it is decoded, so a file
/// can never hold a mean that disagrees with its items.
public struct WeighingSession: Hashable, Sendable, Codable {
    /// One item as the session keeps it.
    public struct Item: Hashable, Sendable, Codable {
        /// The item's number in the session: 1, 2, 3 … across restarts of the daemon.
        public var number: Int
        /// The weight in divisions of the session's division.
        public var divisions: Int64
        /// The weight class when it was recorded; nil when below every band or none configured.
        public var weightClass: String?
        public var flags: ItemEvent.Flags
        /// When it was recorded, as the caller's UTC timestamp text.
        public var recordedAt: String
    }

    public let name: String
    public let division: Division
    /// The bands items are classed by, if any.
    public let classes: WeightClasses?
    /// When the session started, as the caller's UTC timestamp text (the engine has no clock).
    public let startedAt: String
    /// When it was stopped; nil while it runs.
    public private(set) var stoppedAt: String?
    /// The items in the order they were placed.
    public private(set) var items: [Item] = []

    /// The highest item number recorded, retracted ones too: the next item is numbered after it,
    /// also after a restart.
    public private(set) var lastNumber = 0
    /// The numbers of the items on the pan (placed, not yet removed), for the first level after a
    /// restart to be matched against (docs/items.md, "Restarts").
    public private(set) var onPan: [Int] = []

    /// The sum of the item weights in divisions: exact, whatever the count.
    public private(set) var totalDivisions: Int64 = 0
    /// The first item of the greatest weight, and of the least.
    public private(set) var heaviest: Item?
    public private(set) var lightest: Item?
    /// Items per class name; items of no class are in ``unclassifiedCount``.
    public private(set) var countsByClass: [String: Int] = [:]
    public private(set) var unclassifiedCount = 0
    /// Welford's running mean and sum of squared deviations, in grams: one pass, no loss of
    /// precision when the weights are large beside their spread (a sum of squares minus the
    /// square of the sum cancels catastrophically there).
    private var runningMean = 0.0
    private var squaredDeviations = 0.0

    private enum CodingKeys: String, CodingKey {
        case name, division, classes, startedAt, stoppedAt, items, lastNumber, onPan
    }

    /// Starts a session.
    ///
    /// - Parameter startedAt: the wall-clock time as text, such as `2026-09-02T08:15:00Z`.
    public init(name: String, division: Division, classes: WeightClasses? = nil, startedAt: String) throws(Refusal) {
        guard !name.isEmpty, !name.allSatisfy(\.isWhitespace) else {
            throw Refusal(
                .invalidConfiguration, "a weighing session needs a name",
                hint: "name it after what is weighed, such as \"crate 12\"")
        }
        self.name = name
        self.division = division
        self.classes = classes
        self.startedAt = startedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        division = try container.decode(Division.self, forKey: .division)
        classes = try container.decodeIfPresent(WeightClasses.self, forKey: .classes)
        startedAt = try container.decode(String.self, forKey: .startedAt)
        stoppedAt = try container.decodeIfPresent(String.self, forKey: .stoppedAt)
        for item in try container.decode([Item].self, forKey: .items) { add(item) }
        // Files written before numbers were per session have neither: the items tell.
        lastNumber = try container.decodeIfPresent(Int.self, forKey: .lastNumber) ?? items.map(\.number).max() ?? 0
        let numbers = Set(items.map(\.number))
        onPan = (try container.decodeIfPresent([Int].self, forKey: .onPan) ?? []).filter(numbers.contains)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(division, forKey: .division)
        try container.encodeIfPresent(classes, forKey: .classes)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encodeIfPresent(stoppedAt, forKey: .stoppedAt)
        try container.encode(items, forKey: .items)
        // Written only when they say more than the items do, so a file of the earlier store,
        // which had neither, is written again byte for byte.
        if lastNumber > items.map(\.number).max() ?? 0 { try container.encode(lastNumber, forKey: .lastNumber) }
        if !onPan.isEmpty { try container.encode(onPan, forKey: .onPan) }
    }

    /// The items on the pan with their weights in divisions, for ``ItemDetector/resume(onPan:lastItem:)``.
    public var weighedOnPan: [(item: Int, divisions: Int64)] {
        onPan.compactMap { number in items.first { $0.number == number }.map { (number, $0.divisions) } }
    }

    /// Whether items are still being recorded.
    public var isRunning: Bool { stoppedAt == nil }

    /// Records an item event: a `placed` event becomes an item; a `removed` one is none (the
    /// fruit was counted when placed) and gives nil; a `retracted` one takes its item back out
    /// (a tare made it a container) and gives the item removed, or nil when it is not here.
    ///
    /// - Returns: the item as recorded, or a refusal when the session is stopped or the event
    ///   is in another division (its weight would be misread).
    public mutating func record(_ event: ItemEvent, at timestamp: String) -> Result<Item?, Refusal> {
        guard isRunning else {
            return .failure(
                Refusal(
                    .noProcedure, "session \"\(name)\" was stopped at \(stoppedAt ?? "?"); item not recorded",
                    hint: "start a new session to go on weighing"))
        }
        guard event.division == division else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "item of sensor \(event.sensor) is in divisions of \(event.division), the session's are \(division)",
                    hint: "start a new session after changing the division"))
        }
        if event.kind == .retracted, let number = event.item {
            // A tare made it a container: the session forgets it, as if never weighed.
            guard let index = items.firstIndex(where: { $0.number == number }) else { return .success(nil) }
            let retracted = items[index]
            onPan.removeAll { $0 == number }
            var kept = items
            kept.remove(at: index)
            resetFigures()
            for item in kept { add(item) }
            return .success(retracted)
        }
        if event.kind == .removed {
            // In `accumulate` a removal names no item: which are left cannot be told, so none is.
            if let number = event.item { onPan.removeAll { $0 == number } } else { onPan.removeAll() }
            return .success(nil)
        }
        guard event.kind == .placed, let number = event.item else { return .success(nil) }
        lastNumber = max(lastNumber, number)
        onPan.append(number)
        var flags = event.flags
        if classes?.isBorderline(grams: event.weight, division: division) == true { flags.insert(.borderline) }
        let item = Item(
            number: number, divisions: event.divisions, weightClass: classes?.name(forGrams: event.weight),
            flags: flags, recordedAt: timestamp)
        add(item)
        return .success(item)
    }

    /// Stops the session; later items are refused. Stopping twice keeps the first time.
    public mutating func stop(at timestamp: String) {
        if stoppedAt == nil { stoppedAt = timestamp }
    }

    private mutating func resetFigures() {
        items.removeAll()
        (totalDivisions, heaviest, lightest) = (0, nil, nil)
        (countsByClass, unclassifiedCount, runningMean, squaredDeviations) = ([:], 0, 0, 0)
    }

    private mutating func add(_ item: Item) {
        items.append(item)
        totalDivisions += item.divisions
        if item.divisions > (heaviest?.divisions ?? .min) { heaviest = item }
        if item.divisions < (lightest?.divisions ?? .max) { lightest = item }
        if let name = item.weightClass {
            countsByClass[name, default: 0] += 1
        } else {
            unclassifiedCount += 1
        }
        let grams = division.grams(divisions: item.divisions)
        let delta = grams - runningMean
        runningMean += delta / Double(items.count)
        squaredDeviations += delta * (grams - runningMean)
    }

    public var count: Int { items.count }
    /// The total weight in grams, a multiple of d.
    public var total: Double { division.grams(divisions: totalDivisions) }
    /// The mean item weight in grams; nil with no items.
    public var mean: Double? { items.isEmpty ? nil : runningMean }
    /// The sample standard deviation (n − 1) of the item weights in grams; nil below two items.
    public var standardDeviation: Double? {
        items.count < 2 ? nil : (max(0, squaredDeviations) / Double(items.count - 1)).squareRoot()
    }
    public var minimum: Double? { lightest.map { division.grams(divisions: $0.divisions) } }
    public var maximum: Double? { heaviest.map { division.grams(divisions: $0.divisions) } }

    /// Items per class in the bands' order, every band listed (0 when none), for a report.
    public var classCounts: [(name: String, count: Int)] {
        (classes?.bands ?? []).map { ($0.name, countsByClass[$0.name] ?? 0) }
    }
}
