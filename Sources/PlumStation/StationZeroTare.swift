internal import Logging
internal import PlumCore
internal import PlumProtocol

/// Zero and tare over a restart: each sensor's are saved after every change a user makes, and
/// after zero-tracking moved the zero by a division (``ZeroTareStore``), and handed back to its
/// engine at start and on a reload, which keeps only what still explains the load.
extension Station {
    /// Hands `saved` to `engine`, which judges it on its first stable reading after warm-up.
    /// - Returns: `saved` while the engine has yet to decide, nil once the outcome is logged
    ///   (at once with `restore_tare = false`).
    static func restore(
        _ saved: ZeroTareState, into engine: inout WeighingEngine, sensor: String, logger: Logger
    ) -> ZeroTareState? {
        engine.restoreZeroTare(saved)
        guard let outcome = engine.restoreOutcome else { return saved }
        logger.notice("\(describe(outcome, sensor: sensor))")
        return nil
    }

    /// After a reload rebuilt `entry`'s engine, the old one's zero, tare and warm-up carried
    /// over (``WeighingEngine/carryZeroTare(from:)``): judged on the load only when they no
    /// longer fit the new settings, or were still waiting to be.
    func carryZeroTare(from old: WeighingEngine, into entry: inout Entry) {
        let state = entry.restoring ?? old.zeroTareState
        entry.engine.carryZeroTare(from: old)
        if let outcome = entry.engine.restoreOutcome, old.restoreOutcome != outcome {
            logger.notice("\(Self.describe(outcome, sensor: entry.name))")
        }
        entry.restoring = entry.engine.isRestorePending ? state : nil
    }

    /// One line for the log: what was restored, or what was dropped and why.
    static func describe(_ outcome: ZeroTareRestore, sensor: String) -> String {
        switch outcome {
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

    /// After each reading: logs and saves what became of `entry`'s saved zero and tare once its
    /// engine has decided (so a dropped tare is not restored again), and saves the zero once
    /// tracking has moved it by a division.
    func keepZeroTare(_ entry: inout Entry) {
        if let warming = entry.engine.takeWarmUpChange() {
            // A sample arrived, so the sampler delivers: its state is ok but for the warm-up.
            let state = StateReport(
                sensor: entry.name, state: warming ? "warming-up" : "ok",
                reason: warming ? Self.warmingUp(entry.engine) : nil)
            publisher.publishEvent(.state(state), sensor: entry.name)
        }
        if entry.restoring != nil {
            guard let outcome = entry.engine.restoreOutcome else { return }
            entry.restoring = nil
            logger.notice("\(Self.describe(outcome, sensor: entry.name))")
            saveZeroTare(&entry)
        } else if entry.engine.zeroMovedSinceSave {
            saveZeroTare(&entry)
        }
    }

    /// Saves `entry`'s zero and tare after a zero, tare, clear or a change of calibration; a
    /// failure is logged and the scale weighs on. A saved state still waiting to be judged is
    /// superseded: what the user just did wins.
    func saveZeroTare(_ entry: inout Entry) {
        entry.restoring = nil
        guard let state = entry.engine.zeroTareState else { return }
        switch zeroTareStore.save(state, for: entry.engine.sensor) {
        case .success: entry.engine.markZeroTareSaved()
        case .failure(let error): logger.error("\(entry.name): zero and tare not saved: \(error)")
        }
    }

    /// The restore and the warm-up in `?DEVICES`: `restore` and `restore_reason`, and state
    /// `warming-up` while a sensor that delivers is still in its warm-up.
    static func reportZeroTare(_ entry: Entry, in device: inout DevicesReport.Device) {
        if let outcome = entry.engine.restoreOutcome {
            device.restore = outcome.name
            device.restoreReason = outcome.summary
        } else if entry.restoring != nil {
            device.restore = "pending"
            device.restoreReason = "waiting for the first stable load after warm-up"
        }
        if device.state == "ok", entry.engine.isWarmingUp {
            device.state = "warming-up"
            device.reason = warmingUp(entry.engine)
        }
    }

    /// Why a sensor is `warming-up`, in words.
    static func warmingUp(_ engine: WeighingEngine) -> String {
        let seconds = FixedPoint.text(Double(engine.configuration.warmUp) / 1e9, decimals: 1)
        return "warming up for \(seconds) s after start before zero-setting and the restore of zero and tare"
    }
}
