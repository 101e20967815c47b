/// An `[[alert]]` rule was raised or cleared, or its current state for a new watcher:
/// `{"class":"ALERT","name":"fruit-low","sensor":"bowl","active":true,"grams":182.4,"time":…}`.
public struct AlertReport: Hashable, Sendable, Decodable {
    /// The rule's name from the configuration.
    public var name: String
    public var sensor: String
    public var active: Bool
    /// The net grams that raised or cleared it; nil when the state has not changed since the
    /// daemon started (a current-state report).
    public var grams: Double?
    /// When it was raised or cleared, in seconds since the epoch; for a current-state report
    /// that never changed, when the report was made.
    public var time: Double
    /// `below` or `above`, and the threshold and hysteresis in grams, so a client can say why.
    public var condition: String
    public var threshold: Double
    public var hysteresis: Double
    /// The rule was taken out of the configuration by a reload (protocol 1.2): this is its last
    /// report, never active; a client forgets the alert. Absent (false) otherwise.
    public var removed: Bool

    public init(
        name: String, sensor: String, active: Bool, grams: Double? = nil, time: Double, condition: String,
        threshold: Double, hysteresis: Double, removed: Bool = false
    ) {
        self.name = name
        self.sensor = sensor
        self.active = active
        self.grams = grams
        self.time = time
        self.condition = condition
        self.threshold = threshold
        self.hysteresis = hysteresis
        self.removed = removed
    }

    private enum CodingKeys: String, CodingKey {
        case name, sensor, active, grams, time, condition, threshold, hysteresis, removed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        sensor = try container.decode(String.self, forKey: .sensor)
        active = try container.decode(Bool.self, forKey: .active)
        grams = try container.decodeIfPresent(Double.self, forKey: .grams)
        time = try container.decode(Double.self, forKey: .time)
        condition = try container.decode(String.self, forKey: .condition)
        threshold = try container.decode(Double.self, forKey: .threshold)
        hysteresis = try container.decode(Double.self, forKey: .hysteresis)
        removed = try container.decodeIfPresent(Bool.self, forKey: .removed) ?? false
    }
}
