package import PlumCore
package import PlumDrivers

/// Benchmark 7: items. Seeded sequences of plums placed and removed (``ItemScript``) run
/// through the chip model, the real HX711 driver, the weighing engine and the
/// ``ItemDetector``; every reported event is matched against the truth.
package struct ItemBenchmark: Sendable {
    /// The figures of one way of weighing at one rate.
    package struct Row: Sendable {
        package var mode: ItemDetection.Mode
        package var rate: HX711Rate
        /// Events the script expects (placements and removals).
        package var expected: Int
        /// Expected events reported exactly once, of the right kind.
        package var matched: Int
        /// Expected events not reported before the next action began.
        package var missed: Int
        /// Events reported more than once for one expected event.
        package var countedTwice: Int
        /// Events reported where none was expected (a hand resting, say).
        package var spurious: Int
        /// Matched events within 1 d of their true weight.
        package var withinOneD: Int
        /// The largest weight error of a matched event, in d.
        package var worstError: Double
        /// Two plums within the settling time, and how many of those were flagged merged.
        package var mergedExpected: Int
        package var mergedFlagged: Int
        /// Single plums flagged merged all the same.
        package var falselyMerged: Int
        package var hands: Int
        package var rolls: Int
        /// The slowest report, seconds from the step to the event.
        package var slowest: Double
        /// Seconds from the first sample to the first stable reading: when the power-up zero was
        /// set; the first plum lands at ``ItemBenchmark/firstPlacement``, after it.
        package var ready = Double.nan
        /// The edge script's actions (``ItemScript/edges(mode:actions:seed:start:)``).
        package var swaps = 0
        package var bowls = 0
        package var restarts = 0
        /// `placed` items whose number was not one more than the last placed before it: a
        /// restart that started the numbering again, or a number given twice.
        package var misnumbered = 0
    }

    /// Seconds from the first sample to the first plum. At 10 SPS the power-up zero waits until
    /// its average is known to ¼ d (docs/engine.md), 3.7 s with the datasheet noise (the table's
    /// "zero set s"), and no reading is stable before it; a plum set down at 2 s, as the script
    /// once did, landed before it and was zeroed away with the pan (OIML R 76-1 4.5.1, initial
    /// zero-setting): one placement missed in each way of weighing.
    package static let firstPlacement = 6.0

    package let rate: HX711Rate
    package let seed: UInt64
    /// Placements (and hands) per way of weighing.
    package let actions: Int

    package init(rate: HX711Rate, seed: UInt64, actions: Int = 40) {
        self.rate = rate
        self.seed = seed
        self.actions = actions
    }

    package func run(mode: ItemDetection.Mode) throws -> Row {
        try run(
            ItemScript(
                mode: mode, actions: actions, seed: seed &+ (mode == .accumulate ? 1 : 0), start: Self.firstPlacement),
            mode: mode)
    }

    /// The edge script (swaps, bowls with tares, restarts) for `mode`.
    package func runEdges(mode: ItemDetection.Mode) throws -> Row {
        try run(
            ItemScript.edges(
                mode: mode, actions: actions, seed: seed &+ (mode == .accumulate ? 1 : 0), start: Self.firstPlacement),
            mode: mode)
    }

    /// Runs `script` as the daemon's channel would: each reading to the engine and the
    /// detector; a tare command to the engine and, once it took, to the detector
    /// (``ItemDetector/tare(time:grossDivisions:)``), a cleared tare as a rebase; a restart as a
    /// new engine that restores the saved zero and tare and a new detector resumed on the items
    /// that were on the pan (``ItemDetector/resume(onPan:lastItem:)``), with no samples for the
    /// downtime.
    func run(_ script: ItemScript, mode: ItemDetection.Mode) throws -> Row {
        let trace = try WorkloadTrace(workload: script.workload, rate: rate, seed: seed)
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: rate))
        let countsPerGram = (Double(try WorkloadTrace.calibrationCode(grams: 385, rate: rate)) - zero) / 385
        let configuration = ScaleConfiguration()
        let sensor = SensorIdentity(id: "items", model: "hx711", gain: 128)
        let calibration = try CalibrationFit.fit(
            points: [
                CalibrationPoint(grams: 0, signal: zero),
                CalibrationPoint(grams: 385, signal: zero + 385 * countsPerGram)
            ],
            sensor: sensor, kind: .loadCell, configuration: configuration, createdAt: "benchmark"
        ).get()
        var engine = try WeighingEngine(
            sensor: sensor, kind: .loadCell, configuration: configuration, calibration: calibration)
        var detector = try ItemDetector(
            sensor: sensor.id, division: configuration.division, settings: ItemDetection(mode: mode))
        var reported: [(time: Double, event: ItemEvent)] = []
        var ready: Double?
        var commands = script.commands[...]
        var tarePressed = false
        var downUntil = -Double.infinity
        var latestGross: Double?
        for point in trace.points {
            while let next = commands.first, next.time <= point.time {
                commands.removeFirst()
                switch next.command {
                case .tare:
                    tarePressed = true
                case .restart(let downtime):
                    let saved = engine.zeroTareState
                    engine = try WeighingEngine(
                        sensor: sensor, kind: .loadCell, configuration: configuration, calibration: calibration)
                    if let saved { engine.restoreZeroTare(saved) }
                    let old = detector
                    detector = try ItemDetector(
                        sensor: sensor.id, division: configuration.division, settings: ItemDetection(mode: mode))
                    detector.resume(onPan: old.weighedOnPan, lastItem: old.itemCount)
                    downUntil = point.time + downtime
                    tarePressed = false
                }
            }
            guard point.time >= downUntil else { continue }
            if tarePressed, let gross = latestGross {
                switch engine.tareNow() {
                case .success:
                    tarePressed = false
                    if engine.tare > 0 {
                        let divisions = configuration.division.round(gross).divisions
                        for event in detector.tare(time: point.nanoseconds, grossDivisions: divisions) {
                            reported.append((point.time, event))
                        }
                    } else {
                        detector.rebase()
                    }
                case .failure(let refusal) where refusal.code == .negativeTare:
                    // The bowl lifted, the cell's creep recovery left the gross a division or
                    // two below zero: the refusal says to zero the empty scale, and so the
                    // operator does (which clears the tare too).
                    if case .success = engine.zero() {
                        tarePressed = false
                        detector.rebase()
                    }
                case .failure:
                    break  // not stable yet: pressed again at the next sample
                }
            }
            var flags: EngineInput.Flags = []
            if point.flags.contains(.overRange) { flags.insert(.overRange) }
            if point.flags.contains(.underRange) { flags.insert(.underRange) }
            let reading = engine.process(EngineInput(signal: Double(point.raw), time: point.nanoseconds, flags: flags))
            latestGross = reading.gross
            // No reading is stable before the power-up zero is set (docs/engine.md): the first stable
            // one says when it was.
            if ready == nil, reading.isStable { ready = point.time }
            for event in detector.observe(reading) { reported.append((point.time, event)) }
        }
        var row = Self.score(
            script: script, reported: reported, mode: mode, rate: rate, division: configuration.division)
        row.ready = ready ?? .nan
        (row.swaps, row.bowls, row.restarts) = (script.swaps, script.bowls, script.restarts)
        return row
    }

    /// Matches reported events to expected ones by the span each expected event owns. A span may
    /// expect more than one event (a swap: the old fruit `removed` and the new one `placed`):
    /// each expected event takes the first report of its kind in its span; a second report of a
    /// kind already matched there is counted twice, any other report is spurious.
    static func score(
        script: ItemScript, reported: [(time: Double, event: ItemEvent)], mode: ItemDetection.Mode, rate: HX711Rate,
        division: Division
    ) -> Row {
        let d = division.grams
        var row = Row(
            mode: mode, rate: rate, expected: script.expected.count, matched: 0, missed: 0, countedTwice: 0,
            spurious: 0, withinOneD: 0, worstError: 0, mergedExpected: 0, mergedFlagged: 0, falselyMerged: 0,
            hands: script.hands, rolls: script.rolls, slowest: 0)
        var used = Array(repeating: false, count: reported.count)
        for expected in script.expected {
            if expected.merged { row.mergedExpected += 1 }
            guard
                let index = reported.indices.first(where: { index in
                    !used[index] && reported[index].time >= expected.from && reported[index].time < expected.until
                        && reported[index].event.kind == expected.kind
                })
            else {
                row.missed += 1
                continue
            }
            used[index] = true
            let first = reported[index]
            row.matched += 1
            let error = abs(first.event.weight - expected.grams) / d
            row.worstError = max(row.worstError, error)
            if error <= 1 + 1e-9 { row.withinOneD += 1 }
            row.slowest = max(row.slowest, first.time - expected.from)
            if first.event.flags.contains(.merged) {
                if expected.merged { row.mergedFlagged += 1 } else { row.falselyMerged += 1 }
            }
        }
        for index in reported.indices where !used[index] {
            let report = reported[index]
            let twice = script.expected.contains { expected in
                report.time >= expected.from && report.time < expected.until && report.event.kind == expected.kind
            }
            if twice { row.countedTwice += 1 } else { row.spurious += 1 }
        }
        var last = 0
        for report in reported where report.event.kind == .placed {
            if report.event.item != last + 1 { row.misnumbered += 1 }
            last = report.event.item ?? last
        }
        return row
    }

    /// The figures as a table, one row per way of weighing and rate.
    package static func table(_ rows: [Row]) -> String {
        let header = [
            "items (way of weighing, SPS)", "expected", "missed", "twice", "spurious", "within 1 d", "worst d",
            "merged flagged", "falsely merged", "hands", "rolls", "slowest s", "zero set s"
        ]
        let lines = rows.map { row in
            [
                "\(row.mode.rawValue), \(Int(row.rate.samplesPerSecond))", "\(row.expected)", "\(row.missed)",
                "\(row.countedTwice)", "\(row.spurious)", "\(row.withinOneD) of \(row.matched)",
                fixed(row.worstError, 1), "\(row.mergedFlagged) of \(row.mergedExpected)", "\(row.falselyMerged)",
                "\(row.hands)", "\(row.rolls)", fixed(row.slowest, 2), fixed(row.ready, 2)
            ]
        }
        return TextTable.render(header: header, rows: lines)
    }

    /// The edge scripts' figures as a table.
    package static func edgesTable(_ rows: [Row]) -> String {
        let header = [
            "edges (way of weighing, SPS)", "expected", "missed", "twice", "spurious", "within 1 d", "worst d",
            "swaps", "bowls", "restarts", "misnumbered", "slowest s"
        ]
        let lines = rows.map { row in
            [
                "\(row.mode.rawValue), \(Int(row.rate.samplesPerSecond))", "\(row.expected)", "\(row.missed)",
                "\(row.countedTwice)", "\(row.spurious)", "\(row.withinOneD) of \(row.matched)",
                fixed(row.worstError, 1), "\(row.swaps)", "\(row.bowls)", "\(row.restarts)", "\(row.misnumbered)",
                fixed(row.slowest, 2)
            ]
        }
        return TextTable.render(header: header, rows: lines)
    }
}
