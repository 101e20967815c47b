/// A weight the pan settled on: stored once when the pan becomes stable, and again only when
/// the stable weight changes by at least one division.
package struct StableReading: Hashable, Sendable, Codable {
    package var sensor: String
    /// Seconds since the Unix epoch.
    package var time: Double
    package var grams: Double

    package init(sensor: String, time: Double, grams: Double) {
        self.sensor = sensor
        self.time = time
        self.grams = grams
    }
}
