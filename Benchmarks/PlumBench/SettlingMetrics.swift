/// The figures the benchmark reports for one filter on one workload, in divisions d where
/// they are weights.
package struct SettlingMetrics: Hashable, Sendable {
    /// Per load change: seconds from the change until the display is within ±1 d of the truth
    /// and flagged stable, and stays so until the next change (nil: never settled).
    package var settleTimes: [Double?]
    /// Per load change: seconds until the display is within ±1 d of the truth and stays so,
    /// stable flag or not: the filter's own speed, without the stability window.
    package var trackTimes: [Double?]
    /// Standard deviation of the display's precise value about its settled mean, in d.
    package var settledNoiseRMS: Double
    /// Largest peak-to-peak of the display once settled, in d.
    package var settledPeakToPeak: Double
    /// Largest excursion past the truth after a change, in the direction of the change, in d.
    package var worstOvershoot: Double
    /// Share of stable-flagged points whose display is more than 1 d from the truth.
    package var wrongStableRate: Double

    /// The worst settle time, or nil when some change never settled.
    package var worstSettleTime: Double? {
        settleTimes.contains(where: { $0 == nil }) ? nil : settleTimes.compactMap { $0 }.max()
    }

    /// The worst time to within ±1 d, or nil when some change never got there.
    package var worstTrackTime: Double? {
        trackTimes.contains(where: { $0 == nil }) ? nil : trackTimes.compactMap { $0 }.max()
    }

    /// The median settle time over the changes that settled.
    package var medianSettleTime: Double? {
        let settled = settleTimes.compactMap { $0 }.sorted()
        guard !settled.isEmpty else { return nil }
        return settled[settled.count / 2]
    }

    /// Measures `trace` with division `d` grams.
    package init(_ trace: DisplayedTrace, division d: Double) {
        let points = trace.points
        let changes = trace.changes.sorted()
        var settleTimes: [Double?] = []
        var trackTimes: [Double?] = []
        var squares = 0.0
        var settledCount = 0
        var peakToPeak = 0.0
        var overshoot = 0.0
        for (index, change) in changes.enumerated() {
            let end = index + 1 < changes.count ? changes[index + 1] : (points.last?.time ?? change) + 1e-9
            let window = points.filter { $0.time >= change && $0.time < end }
            guard !window.isEmpty else {
                settleTimes.append(nil)
                trackTimes.append(nil)
                continue
            }
            var trackedFrom: Int?
            for position in window.indices.reversed() {
                let point = window[position]
                guard let shown = point.shown, abs(shown - point.truth) <= d + 1e-9 else { break }
                trackedFrom = position
            }
            trackTimes.append(trackedFrom.map { window[$0].time - change })
            // The earliest point from which every later point in the interval is good.
            var settledFrom: Int?
            for position in window.indices.reversed() {
                let point = window[position]
                guard let shown = point.shown, point.stable, abs(shown - point.truth) <= d + 1e-9 else { break }
                settledFrom = position
            }
            settleTimes.append(settledFrom.map { window[$0].time - change })
            if let settledFrom {
                let settled = window[settledFrom...].compactMap { point in point.precise.map { $0 - point.truth } }
                // Noise is the spread about the settled mean; a constant offset is an accuracy
                // error, not noise.
                let mean = settled.isEmpty ? 0 : settled.reduce(0, +) / Double(settled.count)
                for error in settled { squares += (error - mean) * (error - mean) }
                settledCount += settled.count
                if let low = settled.min(), let high = settled.max() { peakToPeak = max(peakToPeak, (high - low) / d) }
            }
            // Overshoot: past the new truth in the direction of the step.
            let before = points.last(where: { $0.time < change })?.truth ?? window[0].truth
            let after = window.last!.truth
            let direction: Double = after >= before ? 1 : -1
            // Measured against the level the step settles to (the standard definition), so a
            // display still on its way is never counted.
            for point in window {
                guard let shown = point.shown else { continue }
                overshoot = max(overshoot, direction * (shown - after) / d)
            }
        }
        let stablePoints = points.filter { $0.stable && $0.shown != nil }
        let wrong = stablePoints.filter { abs($0.shown! - $0.truth) > d + 1e-9 }.count
        self.settleTimes = settleTimes
        self.trackTimes = trackTimes
        settledNoiseRMS = settledCount > 0 ? (squares / Double(settledCount)).squareRoot() / d : .nan
        settledPeakToPeak = peakToPeak
        worstOvershoot = overshoot
        wrongStableRate = stablePoints.isEmpty ? 0 : Double(wrong) / Double(stablePoints.count)
    }
}
