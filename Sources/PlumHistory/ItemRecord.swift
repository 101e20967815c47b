/// One item event as the history keeps it: a fruit put on or taken off a pan, as the daemon's
/// `ITEM` report said (docs/items.md), and the session it counted in.
///
/// The daemon numbers a sensor's events 1, 2, 3 … from its start, so `sequence` alone repeats
/// after a daemon restart; `sensor`, `sequence` and `time` together name one event, and the
/// store keeps the first row of each (a report seen twice, by a web service that reconnected or
/// restarted, is one item).
package struct ItemRecord: Hashable, Sendable, Codable {
    package var sensor: String
    /// The daemon's `seq`: 1, 2, 3 … per sensor since the daemon started.
    package var sequence: Int
    /// The fruit's number; nil for a `removed` in `accumulate`.
    package var item: Int?
    /// `placed` or `removed`.
    package var event: String
    package var grams: Double
    /// The gross load the pan settled at after the step.
    package var grossAfter: Double
    package var weightClass: String?
    /// `merged`, `stacked`; empty for a clean step.
    package var flags: [String]
    /// When the new level was confirmed, seconds since the Unix epoch.
    package var time: Double
    /// The session that counted it: set for a `placed` item on the sensor of a session running
    /// at its time, once the store has that session (``HistoryStore/append(stable:minutes:items:sessions:)``).
    package var session: String?

    package init(
        sensor: String, sequence: Int, item: Int?, event: String, grams: Double, grossAfter: Double,
        weightClass: String? = nil, flags: [String] = [], time: Double, session: String? = nil
    ) {
        self.sensor = sensor
        self.sequence = sequence
        self.item = item
        self.event = event
        self.grams = grams
        self.grossAfter = grossAfter
        self.weightClass = weightClass
        self.flags = flags
        self.time = time
        self.session = session
    }
}

/// A weighing session's figures as the history keeps them: the latest the daemon sent in a
/// `SESSION` report. One row per session, named by its name, sensor and start (the daemon
/// refuses a name it still keeps, but may take it again once the session is forgotten).
package struct SessionRecord: Hashable, Sendable, Codable {
    /// One weight class and how many of the session's items fell in it.
    package struct ClassCount: Hashable, Sendable, Codable {
        package var name: String
        package var count: Int

        package init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    package var name: String
    package var sensor: String
    /// Seconds since the Unix epoch (the daemon says it in whole seconds).
    package var started: Double
    /// Nil while it runs.
    package var stopped: Double?
    package var division: Double
    package var count: Int
    package var total: Double
    /// Nil with no items.
    package var mean: Double?
    package var minimum: Double?
    package var maximum: Double?
    /// The sample standard deviation (n − 1); nil below two items.
    package var standardDeviation: Double?
    /// Every band in order, with its count.
    package var classes: [ClassCount]
    /// Items below the first band, or all of them without bands.
    package var unclassified: Int

    package init(
        name: String, sensor: String, started: Double, stopped: Double? = nil, division: Double, count: Int,
        total: Double, mean: Double? = nil, minimum: Double? = nil, maximum: Double? = nil,
        standardDeviation: Double? = nil, classes: [ClassCount] = [], unclassified: Int = 0
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
        self.standardDeviation = standardDeviation
        self.classes = classes
        self.unclassified = unclassified
    }
}
