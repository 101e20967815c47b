/// What a filter showed over a workload: for every conversion, the true load, the value on
/// the display (the filter's last output, in grams) and whether it was flagged stable.
public struct DisplayedTrace: Sendable {
    public struct Point: Hashable, Sendable {
        /// Seconds since the workload started.
        public var time: Double
        /// The load actually on the pan, in grams.
        public var truth: Double
        /// What the display showed, in grams (rounded to d); nil before the filter's first output.
        public var shown: Double?
        /// The filter's value before rounding, for the noise figures.
        public var precise: Double?
        public var stable: Bool

        public init(time: Double, truth: Double, shown: Double?, precise: Double? = nil, stable: Bool) {
            self.time = time
            self.truth = truth
            self.shown = shown
            self.precise = precise ?? shown
            self.stable = stable
        }
    }

    public var points: [Point]
    /// The instants (seconds) at which the load changed: the starts of the settling intervals.
    public var changes: [Double]

    public init(points: [Point], changes: [Double]) {
        self.points = points
        self.changes = changes
    }
}
