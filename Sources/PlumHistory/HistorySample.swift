/// One reading of one pan as the history sees it: what a `WEIGHT` report says, reduced to
/// what is stored.
public struct HistorySample: Hashable, Sendable {
    public var sensor: String
    /// Seconds since the Unix epoch.
    public var time: Double
    /// Net grams; nil while the pan has no valid reading (uncalibrated, no signal).
    public var grams: Double?
    public var stable: Bool
    /// Overloaded or underloaded: the grams are not trustworthy and are not summarised.
    public var outOfRange: Bool

    public init(sensor: String, time: Double, grams: Double?, stable: Bool, outOfRange: Bool = false) {
        self.sensor = sensor
        self.time = time
        self.grams = grams
        self.stable = stable
        self.outOfRange = outOfRange
    }
}
