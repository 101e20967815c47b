internal import PlumCore
package import PlumDrivers

/// Benchmark 1, second part: a load at rest on a cell noisier than the datasheet's. The resting
/// workload's conversions get extra noise of 0.25, 0.5 and 1 d rms per conversion, and a
/// mid-read spike of 5 to 50 g on about one conversion in 400; each placement rings. Beside
/// the settling time it reports what a user sees once the load has settled: how often the
/// display changes and how much of the time the reading is stable.
package struct RestingNoiseBenchmark: Sendable {
    /// One noise level's figures.
    package struct Row: Sendable {
        /// Added noise per conversion in d (0: the datasheet's alone, no spikes).
        package var noise: Double
        /// Worst time from a placement until the display is within ±1 d of it for good (nil:
        /// never). Not "and stable": a held spike marks one conversion unstable on purpose, and
        /// the stable share below says how much of the rest was stable.
        package var settle: Double?
        /// The first conversion after a placement (a display showing the true load).
        package var floor: Double?
        /// Display changes per minute from 1.5 s after each placement to the next.
        package var changesPerMinute: Double
        /// Share of readings flagged stable over the same spans.
        package var stableShare: Double
        /// The display furthest from the load over the same spans, in d.
        package var worstOff: Double
    }

    /// 100 g, then 250 g, then the pan emptied, 12 s apart, each ringing at 5 Hz for 0.1 s.
    package static let resting = Workload(
        name: "resting",
        events: [
            .ringingStep(at: 1, to: 100, frequency: 5, decay: 0.1, depth: 0.5),
            .ringingStep(at: 13, to: 250, frequency: 5, decay: 0.1, depth: 0.5),
            .ringingStep(at: 25, to: 0, frequency: 5, decay: 0.1, depth: 0.5)
        ], duration: 37)

    /// The added noise levels, in d.
    package static let noiseLevels = [0, 0.25, 0.5, 1.0]
    /// Seconds after a placement from which the load counts as at rest.
    package static let restAfter = 1.5

    package let rate: HX711Rate
    package let seed: UInt64
    /// PlumScale's engine, with today's chain or the estimator on trial.
    package let filter: FilterUnderTest

    package init(rate: HX711Rate, seed: UInt64, filter: FilterUnderTest = .plumScale) {
        self.rate = rate
        self.seed = seed
        self.filter = filter
    }

    package func run() throws -> [Row] {
        let d = 0.1
        // The first placement after the power-up zero, as in the settling benchmark (``PowerUpZero``).
        let workload = Self.resting.starting(at: try PowerUpZero(rate: rate, seed: seed).firstLoad)
        let base = try WorkloadTrace(workload: workload, rate: rate, seed: seed)
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: rate))
        let countsPerGram = (Double(try WorkloadTrace.calibrationCode(grams: 385, rate: rate)) - zero) / 385
        return try Self.noiseLevels.enumerated().map { index, noise in
            let trace =
                noise == 0
                ? base
                : base.addingNoise(
                    sigma: noise * d, spikeEvery: 400, countsPerGram: countsPerGram, seed: seed &+ UInt64(index))
            let shown = try filter.run(trace, zero: zero, countsPerGram: countsPerGram)
            let truth = try FilterUnderTest.truth.run(trace, zero: zero, countsPerGram: countsPerGram)
            var changes = 0
            var readings = 0
            var stable = 0
            var seconds = 0.0
            var worstOff = 0.0
            let starts = trace.changes.sorted()
            for (position, start) in starts.enumerated() {
                let end = position + 1 < starts.count ? starts[position + 1] : workload.duration
                let rest = shown.points.filter { $0.time >= start + Self.restAfter && $0.time < end }
                var previous: Double?
                for point in rest {
                    guard let value = point.shown else { continue }
                    if let previous, previous != value { changes += 1 }
                    previous = value
                    readings += 1
                    if point.stable { stable += 1 }
                    worstOff = max(worstOff, abs(value - point.truth) / d)
                }
                seconds += end - start - Self.restAfter
            }
            return Row(
                noise: noise, settle: SettlingMetrics(shown, division: d).worstTrackTime,
                floor: SettlingMetrics(truth, division: d).worstTrackTime,
                changesPerMinute: Double(changes) / seconds * 60,
                stableShare: Double(stable) / Double(max(1, readings)), worstOff: worstOff)
        }
    }

    package func table(_ rows: [Row]) -> String {
        let header = [
            "\(filter.name) at rest (\(Int(rate.samplesPerSecond)) SPS), added noise", "to ±1 d s", "floor s",
            "display changes/min at rest", "stable at rest", "worst off d"
        ]
        let lines = rows.map { row in
            [
                row.noise == 0 ? "none (datasheet noise, no spikes)" : "\(fixed(row.noise, 2)) d rms + spikes",
                row.settle.map { fixed($0, 2) } ?? "never", row.floor.map { fixed($0, 2) } ?? "never",
                fixed(row.changesPerMinute, 1), fixed(row.stableShare * 100, 1) + " %", fixed(row.worstOff, 1)
            ]
        }
        return TextTable.render(header: header, rows: lines)
    }
}
