internal import PlumCore
internal import PlumDaemonConfig
internal import PlumProtocol

/// One sensor's item detection as its channel keeps it: the detector on the engine's readings,
/// the weight classes, and what the detector's levels were measured against.
///
/// Levels are net. A zero, a new calibration or a reload that changes the division moves the
/// net (or its meaning) without anything placed or lifted, and so does a tare. Rather than have
/// every command that may do so remember to tell the detector, the channel compares the
/// engine's zero offset, tare, calibration and division with those the levels were seen under,
/// before each reading, and starts afresh (``ItemDetector/rebase()``) when they changed: a
/// MT-SICS `Z` or `T`, a `?ZERO` or `?TARE`, a button press and a calibration commit alike. A
/// tare also retracts the items on the pan (``ItemDetector/tare(time:grossDivisions:)``): they
/// are the container now.
struct ChannelItems {
    var detector: ItemDetector
    /// The `[[class]]` bands; nil when none are configured.
    let classes: WeightClasses?
    /// The engine's zero offset, in grams, when the current levels were seen.
    var zeroOffset: Double
    /// The engine's tare when the current levels were seen.
    var tare: Double
    var calibration: Calibration?

    init(
        sensor: String, settings: ItemSettings, classes: WeightClasses?, engine: WeighingEngine
    ) throws(Refusal) {
        detector = try ItemDetector(
            sensor: sensor, division: engine.configuration.division, settings: settings.detection,
            minimumWeight: engine.configuration.minimumWeightDivisions)
        self.classes = classes
        zeroOffset = engine.zeroOffset
        tare = engine.tare
        calibration = engine.calibration
    }

    /// An explicit zero moves the offset at once; zero tracking moves it by at most ½ d a
    /// second, far less than this between two readings.
    static func zeroMoved(from old: Double, to new: Double, division: Division) -> Bool {
        abs(new - old) >= division.grams / 2
    }
}

extension ItemSettings {
    /// The engine's settings for these file settings.
    var detection: ItemDetection {
        ItemDetection(
            mode: mode == .accumulate ? .accumulate : .oneAtATime, minimumStep: Int64(minimumStepDivisions))
    }
}

extension WeightClasses {
    /// The configured bands, nil when there are none; checked again by the engine's own rules.
    init?(_ settings: [WeightClassSettings]) throws(Refusal) {
        guard !settings.isEmpty else { return nil }
        try self.init(settings.map { Band(name: $0.name, minimumGrams: $0.minimumGrams) })
    }
}

extension SensorChannel {
    /// Runs the detector on `reading` (taken at wall-clock `wallTime`): an event it completes
    /// goes out as an `ITEM` report and to the session (``Outputs/items``).
    mutating func detectItem(_ reading: Reading, wallTime: Double, _ out: inout Outputs) {
        guard var items else { return }
        let division = engine.configuration.division
        if division != items.detector.division {
            // A reload changed the division: levels in the old one mean nothing in the new one.
            if let fresh = try? ItemDetector(
                sensor: name, division: division, settings: items.detector.settings,
                minimumWeight: engine.configuration.minimumWeightDivisions)
            {
                items.detector = fresh
            }
        } else if ChannelItems.zeroMoved(from: items.zeroOffset, to: engine.zeroOffset, division: division)
            || items.calibration != engine.calibration
        {
            items.detector.rebase()
        }
        var events: [ItemEvent] = []
        if engine.tare != items.tare {
            // A tare (or a preset one) makes what is on the pan a container: its items are
            // retracted. A cleared tare only moves the net back up: a fresh start, no item.
            let gross = division.round(reading.gross ?? 0).divisions
            if engine.tare > 0 {
                events += items.detector.tare(time: reading.time, grossDivisions: gross)
            } else {
                items.detector.rebase()
            }
        }
        items.zeroOffset = engine.zeroOffset
        items.tare = engine.tare
        items.calibration = engine.calibration
        let ignored = items.detector.ignoredBelowMinimum
        events += items.detector.observe(reading)
        if let weight = items.detector.ignoredBelowMinimum, weight != ignored {
            // No ITEM for it, so the log says why (debug, as items are).
            out.log.append(
                (
                    .debug,
                    "\(name): \(division.format(divisions: weight, suffix: " g")) placed is below the minimum weight "
                        + "\(division.format(engine.configuration.minimumWeight)) g: no item"
                ))
        }
        for event in events {
            let weightClass = event.kind == .placed ? items.classes?.name(forGrams: event.weight) : nil
            var flags = event.flags
            if event.kind == .placed, items.classes?.isBorderline(grams: event.weight, division: division) == true {
                flags.insert(.borderline)
            }
            let report = ItemReport(
                sensor: name, sequence: event.sequence, item: event.item, event: event.kind.rawValue,
                divisions: event.divisions, grossAfterDivisions: event.grossAfterDivisions,
                division: event.division.grams, time: wallTime, flags: flags.names, weightClass: weightClass)
            out.items.append((event, report))
            // Debug, not info: an item is data, and it is kept where data is (the ITEM report, the
            // history, MQTT); at a weighing a minute an info line would put 1 440 entries a day in
            // the journal, on the same card (docs/PERFORMANCE.md, "Writes to the SD card").
            // `plumscaled --verbose` shows them.
            out.log.append(
                (
                    .debug,
                    "\(name): item \(event.kind.rawValue) \(event.weightText)"
                        + (event.flags.isEmpty ? "" : " (\(event.flags.names.joined(separator: ", ")))")
                ))
        }
        self.items = items
    }

    /// The sensor stopped delivering: when it is back, its first level is matched against the
    /// items that were on the pan (``ItemDetector/resume(onPan:lastItem:)``).
    mutating func forgetItemLevels() {
        guard let detector = items?.detector else { return }
        items?.detector.resume(onPan: detector.weighedOnPan, lastItem: detector.itemCount)
    }
}
