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

    public init(
        name: String, sensor: String, active: Bool, grams: Double? = nil, time: Double, condition: String,
        threshold: Double, hysteresis: Double
    ) {
        self.name = name
        self.sensor = sensor
        self.active = active
        self.grams = grams
        self.time = time
        self.condition = condition
        self.threshold = threshold
        self.hysteresis = hysteresis
    }
}
