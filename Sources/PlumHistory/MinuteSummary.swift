/// The readings of one pan during one whole minute: minimum, mean and maximum net grams.
package struct MinuteSummary: Hashable, Sendable, Codable {
    package var sensor: String
    /// The minute's start, in whole seconds since the Unix epoch (a multiple of 60).
    package var minute: Int64
    package var min: Double
    package var mean: Double
    package var max: Double
    /// How many readings the minute summarises.
    package var samples: Int

    package init(sensor: String, minute: Int64, min: Double, mean: Double, max: Double, samples: Int) {
        self.sensor = sensor
        self.minute = minute
        self.min = min
        self.mean = mean
        self.max = max
        self.samples = samples
    }
}
