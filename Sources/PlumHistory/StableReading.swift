/// A weight the pan settled on: stored once when the pan becomes stable, and again only when
/// the stable weight changes by at least one division.
public struct StableReading: Hashable, Sendable, Codable {
    public var sensor: String
    /// Seconds since the Unix epoch.
    public var time: Double
    public var grams: Double

    public init(sensor: String, time: Double, grams: Double) {
        self.sensor = sensor
        self.time = time
        self.grams = grams
    }
}
