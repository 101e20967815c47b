internal import PlumCore

/// One filter run over one workload trace, giving what the display showed.
package enum FilterUnderTest: Sendable {
    /// PlumScale's weighing engine, calibrated with the known weights.
    case plumScale
    /// The same engine with the level-and-rate estimator on trial (``LevelRateFilter``) in
    /// place of today's chain.
    case plumScaleLevelRate
    /// A peer library's filter, with the same calibration, rounding and stability rule.
    case peer(@Sendable () -> any ReadingFilter)
    /// No filter at all: the display shows the true load of each conversion, rounded, under the
    /// same stability rule. No filter can settle sooner, so its times are the floor the
    /// workload and the rule set for everyone.
    case truth
    /// No filter and no noise: the display shows what the pan feels, ringing and knocks
    /// included. It is stable once the pan is at rest, the floor for a filter that does not
    /// guess the end of the ringing.
    case pan

    package static let peers: [FilterUnderTest] = [
        .peer { BogdeReadAverage(times: 10) },
        .peer { HX711ADCMovingAverage(samples: 16) },
        .peer { ESPHomeSlidingWindow(windowSize: 10) },
        .peer { ESPHomeExponentialAverage(alpha: 0.1) },
        .peer { Gandalf15OutlierMean(readings: 30) },
        .peer { EndailMedian(samples: 3) }
    ]

    /// Which bound the row is, for the true load and the pan; nil for a filter.
    package var floor: SettlingBenchmark.Floor? {
        switch self {
        case .truth: .trueLoad
        case .pan: .pan
        case .plumScale, .plumScaleLevelRate, .peer: nil
        }
    }

    package var name: String {
        switch self {
        case .plumScale: "PlumScale (spike + adaptive)"
        case .plumScaleLevelRate: "PlumScale (level-and-rate, on trial)"
        case .peer(let make): make().name
        case .truth: "the true load itself (the floor)"
        case .pan: "the pan at rest, without noise"
        }
    }

    /// Runs the filter over `trace` with the calibration line `zero` + `countsPerGram` · g.
    ///
    /// - Parameter stabilityWindow: the motion rule's window in nanoseconds, for PlumScale's
    ///   engine and for everyone else alike.
    package func run(
        _ trace: WorkloadTrace, zero: Double, countsPerGram: Double,
        stabilityWindow: UInt64 = ScaleConfiguration().stabilityWindow
    ) throws -> DisplayedTrace {
        var configuration = ScaleConfiguration()
        configuration.stabilityWindow = stabilityWindow
        let division = configuration.division
        var points: [DisplayedTrace.Point] = []
        points.reserveCapacity(trace.points.count)
        switch self {
        case .plumScale, .plumScaleLevelRate:
            if case .plumScaleLevelRate = self { configuration.filter.estimator = .levelRate(.init()) }
            let sensor = SensorIdentity(id: trace.workload.name, model: "hx711", gain: 128)
            let calibration = try CalibrationFit.fit(
                points: [
                    CalibrationPoint(grams: 0, signal: zero),
                    CalibrationPoint(grams: 385, signal: zero + 385 * countsPerGram)
                ],
                sensor: sensor, kind: .loadCell, configuration: configuration, createdAt: "benchmark"
            ).get()
            var engine = try WeighingEngine(
                sensor: sensor, kind: .loadCell, configuration: configuration, calibration: calibration)
            for point in trace.points {
                var flags: EngineInput.Flags = []
                if point.flags.contains(.overRange) { flags.insert(.overRange) }
                if point.flags.contains(.underRange) { flags.insert(.underRange) }
                let reading = engine.process(
                    EngineInput(signal: Double(point.raw), time: point.nanoseconds, flags: flags))
                var shown: Double?
                if case .grams(_, let value) = reading.display { shown = value }
                points.append(
                    .init(
                        time: point.time, truth: point.truth, shown: shown, precise: reading.net,
                        stable: reading.isStable))
            }
        case .peer(let make):
            var filter = make()
            var stability = StabilityDetector(
                window: configuration.stabilityWindow, band: configuration.stabilityBand * division.grams)
            var shown: Double?
            var precise: Double?
            for point in trace.points {
                if let output = filter.process(Double(point.raw)) {
                    precise = (output - zero) / countsPerGram
                    shown = division.round(precise!).grams
                }
                // The same motion rule PlumScale uses, on what the peer displays.
                let stable = shown.map { stability.update($0, time: point.nanoseconds) } ?? false
                points.append(
                    .init(time: point.time, truth: point.truth, shown: shown, precise: precise, stable: stable))
            }
        case .truth, .pan:
            var stability = StabilityDetector(
                window: configuration.stabilityWindow, band: configuration.stabilityBand * division.grams)
            for point in trace.points {
                let grams = if case .truth = self { point.truth } else { point.felt }
                let shown = division.round(grams).grams
                let stable = stability.update(shown, time: point.nanoseconds)
                points.append(.init(time: point.time, truth: point.truth, shown: shown, precise: grams, stable: stable))
            }
        }
        return DisplayedTrace(points: points, changes: trace.changes)
    }
}
