internal import Logging
internal import PlumCore

/// Zero and tare over a restart: each sensor's are saved after every change a user makes
/// (``ZeroTareStore``) and handed back to its engine at start and on a reload.
extension Station {
    /// Hands `saved` to `engine`, which judges it on its first stable reading.
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

    /// One line for the log: what was restored, or why not.
    static func describe(_ outcome: ZeroTareRestore, sensor: String) -> String {
        switch outcome {
        case .restored(let zero, let tare):
            "\(sensor): zero and tare restored: zero \(grams(zero)) from calibrated zero, tare \(grams(tare))"
        case .zeroOnly(let zero, let reason):
            "\(sensor): zero restored (\(grams(zero)) from calibrated zero), tare not restored: \(reason)"
        case .discarded(let reason):
            "\(sensor): saved zero and tare not restored: \(reason)"
        }
    }

    /// Logs what became of `entry`'s saved zero and tare once its engine has decided.
    func logRestoreOutcome(_ entry: inout Entry) {
        guard let outcome = entry.engine.restoreOutcome else { return }
        entry.restoring = nil
        logger.notice("\(Self.describe(outcome, sensor: entry.name))")
    }

    /// Saves `entry`'s zero and tare after a zero, tare, clear or a change of calibration; a
    /// failure is logged and the scale weighs on. A saved state still waiting to be judged is
    /// superseded: what the user just did wins.
    func saveZeroTare(_ entry: inout Entry) {
        entry.restoring = nil
        guard let state = entry.engine.zeroTareState else { return }
        if case .failure(let error) = zeroTareStore.save(state, for: entry.engine.sensor) {
            logger.error("\(entry.name): zero and tare not saved: \(error)")
        }
    }
}
