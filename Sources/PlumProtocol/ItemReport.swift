/// One fruit put on or taken off a pan, as the daemon's item detector saw it (protocol 1.5):
/// `{"class":"ITEM","sensor":"left","seq":3,"item":3,"event":"placed","grams":87.3,…}`.
///
/// Sent to every watcher of the sensor, once per step, so that nobody has to write down each
/// weight (docs/items.md). The weight is the step between two stable levels, a whole number of
/// divisions: ``divisions`` is exact and ``grams`` is `divisions × division`.
public struct ItemReport: Hashable, Sendable, Decodable {
    public var sensor: String
    /// The event's number on this sensor since the daemon started, 1, 2, 3 … with no gaps: a
    /// client that sees a gap missed an event.
    public var sequence: Int
    /// The item's number: a new one for `placed`; for `removed` in `one-at-a-time` the item it
    /// ends; nil for a `removed` in `accumulate`, which cannot tell which fruit was lifted.
    public var item: Int?
    /// `placed` or `removed`.
    public var event: String
    /// The item's weight in grams, always positive: the step, rounded to the division.
    public var grams: Double
    /// The same weight as a whole number of divisions.
    public var divisions: Int64
    /// The gross load the pan settled at after the step, in grams, rounded to the division.
    public var grossAfter: Double
    /// The division d, in grams.
    public var division: Double
    /// When the new level was confirmed, in seconds since the epoch.
    public var time: Double
    /// What the detector could not be sure of: `merged`, `stacked`; empty for a clean step.
    public var flags: [String]
    /// The `[[class]]` band of a `placed` item's weight; nil without bands, below the first
    /// band, or for a `removed`.
    public var weightClass: String?

    public init(
        sensor: String, sequence: Int, item: Int?, event: String, divisions: Int64, grossAfterDivisions: Int64,
        division: Double, time: Double, flags: [String] = [], weightClass: String? = nil
    ) {
        let decimals = ReportGrid.grams(division: division)
        self.sensor = sensor
        self.sequence = sequence
        self.item = item
        self.event = event
        self.divisions = divisions
        self.grams = ReportGrid.onGrid(Double(divisions) * division, decimals: decimals)
        self.grossAfter = ReportGrid.onGrid(Double(grossAfterDivisions) * division, decimals: decimals)
        self.division = DecimalText.onGrid(division, decimals: ReportGrid.division)
        self.time = DecimalText.onGrid(time, decimals: ReportGrid.time)
        self.flags = flags
        self.weightClass = weightClass
    }

    enum CodingKeys: String, CodingKey {
        case sensor, item, event, grams, divisions, division, time, flags
        case sequence = "seq"
        case grossAfter = "gross_after"
        case weightClass = "weight_class"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let division = try values.decode(Double.self, forKey: .division)
        let grossAfter = try values.decode(Double.self, forKey: .grossAfter)
        self.init(
            sensor: try values.decode(String.self, forKey: .sensor),
            sequence: try values.decode(Int.self, forKey: .sequence),
            item: try values.decodeIfPresent(Int.self, forKey: .item),
            event: try values.decode(String.self, forKey: .event),
            divisions: try values.decode(Int64.self, forKey: .divisions),
            grossAfterDivisions: Int64((grossAfter / division).rounded()), division: division,
            time: try values.decode(Double.self, forKey: .time),
            flags: try values.decodeIfPresent([String].self, forKey: .flags) ?? [],
            weightClass: try values.decodeIfPresent(String.self, forKey: .weightClass))
    }

    /// The report's JSON, keys in their fixed order (``Report/line``).
    var object: JSONWriter {
        var json = JSONWriter()
        json.add("class", "ITEM")
        json.add("sensor", sensor)
        json.add("seq", sequence)
        if let item { json.add("item", item) } else { json.addNull("item") }
        json.add("event", event)
        json.add("grams", grams)
        json.add("divisions", Int(divisions))
        json.add("gross_after", grossAfter)
        json.add("division", division)
        json.add("time", time, decimals: ReportGrid.time)
        json.add("flags", strings: flags)
        if let weightClass { json.add("weight_class", weightClass) }
        return json
    }
}
