/// What a filter showed over a workload: for every conversion, the true load, the value on
/// the display (the filter's last output, in grams) and whether it was flagged stable.
package struct DisplayedTrace: Sendable {
    package struct Point: Hashable, Sendable {
        /// Seconds since the workload started.
        package var time: Double
        /// The load actually on the pan, in grams.
        package var truth: Double
        /// What the display showed, in grams (rounded to d); nil before the filter's first output.
        package var shown: Double?
        /// The filter's value before rounding, for the noise figures.
        package var precise: Double?
        package var stable: Bool

        package init(time: Double, truth: Double, shown: Double?, precise: Double? = nil, stable: Bool) {
            self.time = time
            self.truth = truth
            self.shown = shown
            self.precise = precise ?? shown
            self.stable = stable
        }
    }

    package var points: [Point]
    /// The instants (seconds) at which the load changed: the starts of the settling intervals.
    package var changes: [Double]

    package init(points: [Point], changes: [Double]) {
        self.points = points
        self.changes = changes
    }
}
