internal import Logging
internal import PlumCore
internal import PlumDaemonConfig
internal import PlumDrivers
internal import PlumHardware
internal import PlumProtocol
internal import PlumStore

/// A sensor that stops delivering samples stops being weighed, at once and in every output:
/// its last weight is history, not a reading.
///
/// - The engine forgets its last reading and restarts its filters (``WeighingEngine/interrupt(because:)``):
///   no zero, tare or capture can be taken from before the gap, and the first stable reading
///   afterwards is made of fresh samples only.
/// - Waits for a stable reading (MT-SICS `S`, `Z`, `T`, a button) end at once with the outage.
/// - `SIR` followers are told the sensor is unavailable (`S I`).
/// - Watchers get a `WEIGHT` with no grams, `stale`, its `state` and `reason`, and the age of
///   the last good sample; `?POLL` answers the same for as long as the outage lasts.
/// - The pan leaves the heaviest and the total; an alert's hold in progress starts over, and
///   nothing raises or clears an alert until samples come again.
extension SensorChannel {
    /// Enters (or updates) the outage for `state`.
    mutating func enterOutage(
        _ state: SensorState, now: MonotonicInstant, wallTime: Double, _ heaviest: inout HeaviestJudge,
        _ out: inout Outputs
    ) {
        let previous = outage
        outage = state
        engine.interrupt(because: state.description)
        forgetItemLevels()
        heaviest.observe(name, nil)
        // The daemon's one line per change of a sensor's state (the sampler's retries of the same
        // fault repeat it every few seconds for as long as a wire is out, and a journal on the SD
        // card would keep each): the outage's start, and each change of its kind or reason.
        if previous == nil {
            out.log.append((.warning, "\(name): \(state); its last weight is no longer shown as current"))
        } else if previous != state {
            out.log.append((.warning, "\(name): now \(state)"))
        }
        out.interrupted = true
        for token in stableWaits.keys { out.resumes.append((token, WeighingOutcome(reading: nil, outage: state))) }
        clearStableWaits()
        for index in alerts.indices { _ = alerts[index].state.update(grams: nil, time: 0) }
        out.weight = (
            ReportBuilder.unavailableReport(self, now: now, wallTime: wallTime),
            ReportBuilder.unavailableFrame(index: index)
        )
    }
}

/// Zero and tare over a restart: each sensor's are saved after every change a user makes, and
/// after zero-tracking moved the zero by a division (``ZeroTareStore``), and handed back to its
/// engine at start and on a reload, which keeps only what still explains the load.
extension SensorChannel {
    /// Hands `saved` to the engine, which judges it on its first stable reading after warm-up.
    /// - Returns: the outcome's log line when it is decided at once (with `restore_tare = false`).
    mutating func restore(_ saved: ZeroTareState) -> String? {
        engine.restoreZeroTare(saved)
        guard let outcome = engine.restoreOutcome else {
            restoring = saved
            return nil
        }
        restoring = nil
        return Self.describe(outcome, sensor: name)
    }

    /// Puts `scale` into use (a reload): the engine is rebuilt with it and keeps its
    /// calibration; its zero, tare and warm-up are carried over (``WeighingEngine/carryZeroTare(from:)``),
    /// judged on the load only when they no longer fit the new settings, or were still waiting
    /// to be. A calibration capture that waits is ended: its points were taken on the old settings.
    /// - Parameter profile: the sensor's profile in the reloaded file; nil when the sensor is no
    ///   longer in it (its profile stays as it was).
    /// - Returns: the ended capture's token and reply, the restore's log line, and the engine's
    ///   refusal of `scale` (then the old settings stay).
    mutating func reload(_ scale: ScaleConfiguration, profile: String??) -> Reloaded {
        var reloaded = Reloaded()
        reloaded.capture = calibration.abandon(
            "the configuration was reloaded; begin the calibration again", engine: engine)
        let old = engine
        do {
            engine = try WeighingEngine(
                sensor: old.sensor, kind: old.kind, configuration: scale, calibration: old.calibration,
                uncalibratedReason: old.uncalibratedReason)
        } catch {
            reloaded.refusal = error
            return reloaded
        }
        let state = restoring ?? old.zeroTareState
        engine.carryZeroTare(from: old)
        if let outcome = engine.restoreOutcome, old.restoreOutcome != outcome {
            reloaded.log = Self.describe(outcome, sensor: name)
        }
        restoring = engine.isRestorePending ? state : nil
        if let outage { engine.interrupt(because: outage.description) }
        if let profile { self.profile = profile }
        latest = nil
        return reloaded
    }

    /// What a reload of the settings did to a channel.
    struct Reloaded {
        var capture: (token: UInt64, reply: [Report])?
        var log: String?
        var refusal: Refusal?
    }

    /// One line for the log: what was restored, or what was dropped and why.
    static func describe(_ outcome: ZeroTareRestore, sensor: String) -> String {
        let grams = ReportBuilder.grams
        return switch outcome {
        case .restored(let zero, let tare) where tare > 0:
            "\(sensor): zero and tare restored: zero \(grams(zero)) from calibrated zero, tare \(grams(tare))"
        case .restored(let zero, _):
            "\(sensor): zero restored (\(grams(zero)) from calibrated zero); initial zero-setting as configured"
        case .zeroOnly(let zero, let reason):
            "\(sensor): \(reason); zero restored (\(grams(zero)) from calibrated zero), initial zero-setting runs"
        case .discarded(let reason):
            "\(sensor): saved zero and tare not restored: \(reason); initial zero-setting runs as configured"
        }
    }

    /// How often zero tracking's moves are saved at most: each save is a new file written,
    /// synced and renamed, some 20 KiB of an SD card's writes with the file system's own blocks,
    /// and a cell drifting with the morning's warmth had the daemon saving every few seconds
    /// (33 MB a day at rest; docs/PERFORMANCE.md, "Writes to the SD card"). Half an hour bounds
    /// it at 48 saves a day per pan, about 1 MB, whatever the drift. A power cut loses at most
    /// this long of tracked drift, which the restart's check of the load judges like any other
    /// difference; a zero or tare someone makes is saved at once.
    static let trackedZeroSaveInterval: UInt64 = 1_800_000_000_000

    /// After each reading: the warm-up's `STATE` when it begins or ends; what became of the
    /// saved zero and tare once the engine has decided (logged, and saved so a dropped tare is
    /// not restored again), and a save once tracking has moved the zero by a division, at most
    /// once per ``trackedZeroSaveInterval`` (the first move at once).
    mutating func keepZeroTare(_ out: inout Outputs, now: MonotonicInstant) {
        if let warming = engine.takeWarmUpChange() {
            // A sample arrived, so the sampler delivers: its state is ok but for the warm-up.
            let state = StateReport(
                sensor: name, state: warming ? "warming-up" : "ok",
                reason: warming ? ReportBuilder.warmingUp(engine) : nil)
            out.leading.append(.state(state))
        }
        if restoring != nil {
            guard let outcome = engine.restoreOutcome else { return }
            restoring = nil
            out.log.append((.notice, Self.describe(outcome, sensor: name)))
            markZeroTareChanged()
        } else if engine.zeroMovedSinceSave,
            trackedZeroSavedAt.map({ now.nanoseconds(since: $0) >= Self.trackedZeroSaveInterval }) ?? true
        {
            trackedZeroSavedAt = now
            markZeroTareChanged()
        }
    }

    mutating func clearStableWaits() {
        for token in stableWaits.keys { _ = endWait(token) }
    }
}
