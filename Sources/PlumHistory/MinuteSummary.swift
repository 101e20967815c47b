/// The readings of one pan during one whole minute: minimum, mean and maximum net grams.
public struct MinuteSummary: Hashable, Sendable, Codable {
    public var sensor: String
    /// The minute's start, in whole seconds since the Unix epoch (a multiple of 60).
    public var minute: Int64
    public var min: Double
    public var mean: Double
    public var max: Double
    /// How many readings the minute summarises.
    public var samples: Int

    public init(sensor: String, minute: Int64, min: Double, mean: Double, max: Double, samples: Int) {
        self.sensor = sensor
        self.minute = minute
        self.min = min
        self.mean = mean
        self.max = max
        self.samples = samples
    }
}
