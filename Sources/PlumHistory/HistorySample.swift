/// One reading of one pan as the history sees it: what a `WEIGHT` report says, reduced to
/// what is stored.
package struct HistorySample: Hashable, Sendable {
    package var sensor: String
    /// Seconds since the Unix epoch.
    package var time: Double
    /// Net grams; nil while the pan has no valid reading (uncalibrated, no signal).
    package var grams: Double?
    package var stable: Bool
    /// Overloaded or underloaded: the grams are not trustworthy and are not summarised.
    package var outOfRange: Bool

    package init(sensor: String, time: Double, grams: Double?, stable: Bool, outOfRange: Bool = false) {
        self.sensor = sensor
        self.time = time
        self.grams = grams
        self.stable = stable
        self.outOfRange = outOfRange
    }
}
