/// The reply to `?SESSION`, and the news of a running session to watchers (protocol 1.5):
/// `{"class":"SESSION","action":"start","ok":true,"message":"…","sessions":[{…}]}`.
///
/// `sessions` holds the session the action concerns (start, stop, show, and `item` for each
/// item the running session recorded, sent to watchers), or every kept one (list), newest
/// last. Only `show` carries the items themselves; the other actions carry the figures.
public struct SessionReport: Hashable, Sendable, Decodable {
    /// `start`, `stop`, `show`, `list`, or `item` for a watcher's update.
    public var action: String
    public var ok: Bool
    /// What happened or why not, said once: "session crate-12 started on left", "no session runs; …".
    public var message: String
    public var sessions: [SessionSummary]

    public init(action: String, ok: Bool, message: String, sessions: [SessionSummary] = []) {
        self.action = action
        self.ok = ok
        self.message = message
        self.sessions = sessions
    }

    var object: JSONWriter {
        var json = JSONWriter()
        json.add("class", "SESSION")
        json.add("action", action)
        json.add("ok", ok)
        json.add("message", message)
        json.add("sessions", objects: sessions.map(\.object))
        return json
    }
}

/// One weighing session's figures (and, for `show`, its items).
public struct SessionSummary: Hashable, Sendable, Decodable {
    /// One band's count.
    public struct ClassCount: Hashable, Sendable, Decodable {
        public var name: String
        public var count: Int

        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// One recorded item.
    public struct Item: Hashable, Sendable, Decodable {
        public var item: Int
        public var grams: Double
        public var weightClass: String?
        public var flags: [String]
        /// When it was recorded, UTC, such as `2026-09-02T08:15:03Z`.
        public var at: String

        public init(item: Int, grams: Double, weightClass: String? = nil, flags: [String] = [], at: String) {
            self.item = item
            self.grams = grams
            self.weightClass = weightClass
            self.flags = flags
            self.at = at
        }

        private enum CodingKeys: String, CodingKey {
            case item, grams, flags, at
            case weightClass = "weight_class"
        }

        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            item = try values.decode(Int.self, forKey: .item)
            grams = try values.decode(Double.self, forKey: .grams)
            weightClass = try values.decodeIfPresent(String.self, forKey: .weightClass)
            flags = try values.decodeIfPresent([String].self, forKey: .flags) ?? []
            at = try values.decode(String.self, forKey: .at)
        }

        var object: JSONWriter {
            var json = JSONWriter()
            json.add("item", item)
            json.add("grams", grams)
            if let weightClass { json.add("weight_class", weightClass) }
            json.add("flags", strings: flags)
            json.add("at", at)
            return json
        }
    }

    public var name: String
    public var sensor: String
    public var started: String
    /// When it was stopped; nil while it runs.
    public var stopped: String?
    /// The division d, in grams: every weight below is a multiple of it.
    public var division: Double
    public var count: Int
    public var total: Double
    /// Nil with no items.
    public var mean: Double?
    public var minimum: Double?
    public var maximum: Double?
    /// The number of the (first) heaviest item.
    public var heaviestItem: Int?
    /// The sample standard deviation (n − 1); nil below two items.
    public var standardDeviation: Double?
    /// Every configured band in order, with its count (0 when none).
    public var classes: [ClassCount]
    /// Items below the first band, or all of them without bands.
    public var unclassified: Int
    /// The items, for `show`; nil otherwise.
    public var items: [Item]?

    public init(
        name: String, sensor: String, started: String, stopped: String? = nil, division: Double, count: Int,
        total: Double, mean: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, heaviestItem: Int? = nil,
        standardDeviation: Double? = nil, classes: [ClassCount] = [], unclassified: Int = 0, items: [Item]? = nil
    ) {
        self.name = name
        self.sensor = sensor
        self.started = started
        self.stopped = stopped
        self.division = division
        self.count = count
        self.total = total
        self.mean = mean
        self.minimum = minimum
        self.maximum = maximum
        self.heaviestItem = heaviestItem
        self.standardDeviation = standardDeviation
        self.classes = classes
        self.unclassified = unclassified
        self.items = items
    }

    /// Whether it still records items.
    public var running: Bool { stopped == nil }

    private enum CodingKeys: String, CodingKey {
        case name, sensor, started, stopped, division, count, total, mean, classes, unclassified, items
        case minimum = "min"
        case maximum = "max"
        case heaviestItem = "heaviest_item"
        case standardDeviation = "std_dev"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try values.decode(String.self, forKey: .name),
            sensor: try values.decode(String.self, forKey: .sensor),
            started: try values.decode(String.self, forKey: .started),
            stopped: try values.decodeIfPresent(String.self, forKey: .stopped),
            division: try values.decode(Double.self, forKey: .division),
            count: try values.decode(Int.self, forKey: .count),
            total: try values.decode(Double.self, forKey: .total),
            mean: try values.decodeIfPresent(Double.self, forKey: .mean),
            minimum: try values.decodeIfPresent(Double.self, forKey: .minimum),
            maximum: try values.decodeIfPresent(Double.self, forKey: .maximum),
            heaviestItem: try values.decodeIfPresent(Int.self, forKey: .heaviestItem),
            standardDeviation: try values.decodeIfPresent(Double.self, forKey: .standardDeviation),
            classes: try values.decodeIfPresent([ClassCount].self, forKey: .classes) ?? [],
            unclassified: try values.decodeIfPresent(Int.self, forKey: .unclassified) ?? 0,
            items: try values.decodeIfPresent([Item].self, forKey: .items))
    }

    var object: JSONWriter {
        var json = JSONWriter()
        json.add("name", name)
        json.add("sensor", sensor)
        json.add("started", started)
        if let stopped { json.add("stopped", stopped) } else { json.addNull("stopped") }
        json.add("division", division)
        json.add("count", count)
        json.add("total", total)
        json.add("mean", optional: mean)
        json.add("min", optional: minimum)
        json.add("max", optional: maximum)
        if let heaviestItem { json.add("heaviest_item", heaviestItem) } else { json.addNull("heaviest_item") }
        json.add("std_dev", optional: standardDeviation)
        json.add(
            "classes",
            objects: classes.map { band in
                var json = JSONWriter()
                json.add("name", band.name)
                json.add("count", band.count)
                return json
            })
        json.add("unclassified", unclassified)
        if let items { json.add("items", objects: items.map(\.object)) }
        return json
    }
}
