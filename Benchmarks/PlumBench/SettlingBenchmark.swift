internal import PlumCore
package import PlumDrivers

/// Benchmark 1: time to a trustworthy weight, for PlumScale and the peers, on the same
/// conversions of the same workloads.
package struct SettlingBenchmark: Sendable {
    /// The bounds run beside the filters under the same rule.
    package enum Floor: Sendable {
        /// The true load, known in advance: nothing causal settles sooner.
        case trueLoad
        /// The noiseless pan: at rest once its ringing has died away.
        case pan
    }

    /// One filter's figures over all workloads at one rate.
    package struct Row: Sendable {
        package var filter: String
        /// Worst settle time per workload name (nil: some change never settled).
        package var worstSettle: [String: Double?]
        /// Worst time to within ±1 d on the step workload, stable flag or not.
        package var stepTrack: Double?
        /// Settled noise over the step workload, in d.
        package var noiseRMS: Double
        package var peakToPeak: Double
        /// Worst overshoot over the step and plum workloads, in d.
        package var overshoot: Double
        /// Share of stable-flagged points more than 1 d off, over all workloads.
        package var wrongStable: Double
        /// The same share on each workload, by name.
        package var wrongStableByWorkload: [String: Double] = [:]
        /// Set when the row is a bound (the true load, the pan), not a competitor.
        package var floor: Floor?

        /// The slowest settle over every workload; nil if anything never settled.
        package var overallWorst: Double? {
            var worst = 0.0
            for value in worstSettle.values {
                guard let value else { return nil }
                worst = max(worst, value)
            }
            return worst
        }
    }

    package let rate: HX711Rate
    package let traces: [WorkloadTrace]
    package let zero: Double
    package let countsPerGram: Double

    /// PlumScale's power-up zero at this rate; every workload places its first load at its
    /// ``PowerUpZero/firstLoad``.
    package let powerUp: PowerUpZero

    /// Generates every workload at `rate` from `seed` and the shared calibration, each placing
    /// its first load after PlumScale's power-up zero (``PowerUpZero``).
    package init(rate: HX711Rate, seed: UInt64, workloads: [Workload] = Workload.all) throws {
        self.rate = rate
        let empty = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: rate))
        let full = Double(try WorkloadTrace.calibrationCode(grams: 385, rate: rate))
        zero = empty
        countsPerGram = (full - empty) / 385
        let powerUp = try PowerUpZero(rate: rate, seed: seed)
        self.powerUp = powerUp
        traces = try workloads.enumerated().map { index, workload in
            try WorkloadTrace(
                workload: workload.starting(at: powerUp.firstLoad), rate: rate, seed: seed &+ UInt64(index))
        }
    }

    /// Runs every filter over every trace.
    ///
    /// - Parameter stabilityWindow: the motion rule's window in nanoseconds, the same for all.
    package func run(
        filters: [FilterUnderTest] = [.plumScale, .plumScaleLevelRate] + FilterUnderTest.peers + [.pan, .truth],
        stabilityWindow: UInt64 = ScaleConfiguration().stabilityWindow
    ) throws -> [Row] {
        let d = 0.1
        return try filters.map { filter in
            var row = Row(
                filter: filter.name, worstSettle: [:], stepTrack: nil, noiseRMS: .nan, peakToPeak: .nan, overshoot: 0,
                wrongStable: 0)
            row.floor = filter.floor
            var stableFlags = 0.0
            var wrong = 0.0
            for trace in traces {
                let shown = try filter.run(
                    trace, zero: zero, countsPerGram: countsPerGram, stabilityWindow: stabilityWindow)
                let metrics = SettlingMetrics(shown, division: d)
                row.worstSettle[trace.workload.name] = metrics.worstSettleTime
                if trace.workload.name == Workload.steps.name {
                    row.noiseRMS = metrics.settledNoiseRMS
                    row.peakToPeak = metrics.settledPeakToPeak
                    row.overshoot = metrics.worstOvershoot
                    row.stepTrack = metrics.worstTrackTime
                }
                let flagged = Double(shown.points.filter { $0.stable && $0.shown != nil }.count)
                row.wrongStableByWorkload[trace.workload.name] = metrics.wrongStableRate
                stableFlags += flagged
                wrong += metrics.wrongStableRate * flagged
            }
            row.wrongStable = stableFlags > 0 ? wrong / stableFlags : 0
            return row
        }
    }

    /// The results as a text table, with the verdict against the 4× target.
    package func table(_ rows: [Row]) -> String {
        let workloads = traces.map(\.workload.name)
        let small = Workload.smallSteps.name
        var header =
            ["filter"] + workloads.map { "\($0) s" } + [
                "steps ±1 d s", "noise rms d", "p-p d", "overshoot d", "wrong stable"
            ]
        if workloads.contains(small) { header.append("wrong stable, \(small)") }
        var lines: [[String]] = []
        for row in rows {
            var cells = [row.filter]
            for name in workloads {
                cells.append((row.worstSettle[name] ?? nil).map { fixed($0, 2) } ?? "never")
            }
            cells += [
                row.stepTrack.map { fixed($0, 3) } ?? "never", fixed(row.noiseRMS, 2), fixed(row.peakToPeak, 1),
                fixed(row.overshoot, 1), fixed(row.wrongStable * 100, 1) + " %"
            ]
            if workloads.contains(small) {
                cells.append(fixed((row.wrongStableByWorkload[small] ?? 0) * 100, 1) + " %")
            }
            lines.append(cells)
        }
        header[0] = "filter (\(Int(rate.samplesPerSecond)) SPS, worst settle to ±1 d and stable)"
        var text = TextTable.render(header: header, rows: lines)
        text +=
            "\nFirst load at \(fixed(powerUp.firstLoad, 0)) s in every workload, for every filter: PlumScale's "
            + "power-up zero is set at \(fixed(powerUp.seconds, 2)) s on an empty pan at this rate.\n"
        if let ours = rows.first, let ourWorst = ours.overallWorst {
            // The target compares PlumScale with peers whose settled noise is no lower than its own.
            let allPeers = rows.dropFirst().filter { $0.floor == nil && !$0.filter.hasPrefix("PlumScale") }
            let trueLoad = rows.first { $0.floor == .trueLoad }
            let peers = allPeers.filter { !$0.noiseRMS.isNaN && ours.noiseRMS <= $0.noiseRMS + 1e-9 }
            text +=
                "\nPlumScale settled noise \(fixed(ours.noiseRMS, 2)) d rms; \(peers.count) of \(allPeers.count) "
                + "peers are as noisy or noisier.\n"
            if let best = peers.compactMap({ row in row.overallWorst.map { (row.filter, $0) } }).min(by: { $0.1 < $1.1 }
            ) {
                let ratio = best.1 / max(ourWorst, 1e-9)
                let verdict = ratio >= 4 ? "met" : "NOT met"
                text +=
                    "To ±1 d and stable, every workload: \(fixed(ratio, 1))× faster than the best of them "
                    + "(\(best.0): \(fixed(best.1, 2)) s vs \(fixed(ourWorst, 2)) s); target ≥ 4×: \(verdict)\n"
                var perWorkload: [String] = []
                for name in workloads {
                    guard let mine = ours.worstSettle[name] ?? nil,
                        let theirs = peers.compactMap({ $0.worstSettle[name] ?? nil }).min()
                    else { continue }
                    perWorkload.append("\(name) \(fixed(theirs / max(mine, 1e-9), 1))×")
                }
                text += "  per workload, against the best of them on each: \(perWorkload.joined(separator: ", "))\n"
                if let floor = trueLoad?.overallWorst {
                    let bound = best.1 / max(floor, 1e-9)
                    text +=
                        "  a display showing the true load is stable after \(fixed(floor, 2)) s under this rule, so "
                        + "no filter can be more than \(fixed(bound, 1))× faster than \(best.0)\n"
                }
            }
            if let ourTrack = ours.stepTrack,
                let best = peers.compactMap({ row in row.stepTrack.map { (row.filter, $0) } }).min(by: { $0.1 < $1.1 })
            {
                let ratio = best.1 / max(ourTrack, 1e-9)
                let verdict = ratio >= 4 ? "met" : "NOT met"
                text +=
                    "To ±1 d on steps, the filter alone: \(fixed(ratio, 1))× faster than the best of them "
                    + "(\(best.0): \(fixed(best.1, 3)) s vs \(fixed(ourTrack, 3)) s); target ≥ 4×: \(verdict)\n"
                if let floor = trueLoad?.stepTrack {
                    text +=
                        "  the true load reaches the display after \(fixed(floor, 3)) s (the first conversion after "
                        + "the change): no filter can be more than \(fixed(best.1 / max(floor, 1e-9), 1))× faster "
                        + "than \(best.0)\n"
                }
            }
        }
        return text
    }
}

/// A number with `decimals` places, for tables; a dash when it is not a number.
package func fixed(_ value: Double, _ decimals: Int) -> String {
    value.isFinite ? FixedPoint.text(value, decimals: decimals) : "–"
}
