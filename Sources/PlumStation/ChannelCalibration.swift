internal import PlumCore
internal import PlumDrivers
internal import PlumProtocol
internal import PlumStore

/// A channel's `?CALIBRATE` steps (its ``CalibrationSession`` on its engine) and its
/// calibration's reloads: a new calibration in use means zero and tare afresh, saved.
extension SensorChannel {
    /// Answers a step that needs no stable load: begin, cancel, fit, commit and rollback.
    mutating func answer(
        _ step: CalibrationRequest.Step, now: String, save: (Calibration) -> Result<String, CalibrationStoreError>,
        rollBack: (inout WeighingEngine) -> Result<Calibration, CalibrationSession.RollbackRefused>
    ) -> Report {
        let before = engine.zeroTareState
        let reply = calibration.answer(step, engine: &engine, now: now, save: save, rollBack: rollBack)
        // A commit or rollback puts another calibration into use, with zero and tare afresh:
        // what was saved under the old one must not come back after a restart.
        if engine.zeroTareState != before { markZeroTareChanged() }
        return reply
    }

    /// Starts a zero or point capture under `token`: nil when it now waits for a stable load
    /// (a later sample's ``Outputs/capture`` answers it), or the reply that refuses it.
    mutating func startCapture(_ step: CalibrationRequest.Step, grams: Double?, token: UInt64) -> Report? {
        if let refusal = calibration.startCapture(step, grams: grams, engine: &engine) { return refusal }
        calibration.wait(.init(token: token, step: step, grams: grams ?? 0))
        return nil
    }

    /// Ends the capture with `token` that found no stable load within `timeout`: its reply,
    /// or nil when it no longer waits.
    mutating func expireCapture(_ token: UInt64, timeout: Duration) -> [Report]? {
        calibration.expire(token, timeout: timeout, engine: &engine)
    }

    /// Puts the calibration the station read again for this sensor (`stored`) into use, if it
    /// differs from the one in use (which then keeps zero and tare): why not, or nil.
    mutating func reloadCalibration(_ stored: Result<Calibration?, CalibrationStoreError>) -> String? {
        switch stored {
        case .success(let stored?) where stored == engine.calibration:
            return nil  // unchanged: keep zero and tare
        case .success(let stored?):
            if case .failure(let refusal) = engine.install(stored) { return "\(name): \(refusal)" }
            markZeroTareChanged()
            return nil
        case .success(nil):
            return nil
        case .failure(let error):
            return "\(name): \(error)"
        }
    }
}

extension CalibrationStore {
    /// Saves a committed calibration; the path written, or why not.
    func saveReturningPath(_ calibration: Calibration) -> Result<String, CalibrationStoreError> {
        save(calibration).map { path(for: calibration.sensor) }
    }

    /// Makes the previous saved calibration of `engine`'s sensor the one in use again.
    func rollBack(_ engine: inout WeighingEngine) -> Result<Calibration, CalibrationSession.RollbackRefused> {
        switch rollback(engine.sensor) {
        case .failure(let error):
            return .failure(CalibrationSession.RollbackRefused(message: error.description))
        case .success(let previous):
            if case .failure(let refusal) = engine.install(previous) {
                return .failure(
                    CalibrationSession.RollbackRefused(
                        message: "the earlier calibration does not fit this sensor now: \(refusal)"))
            }
            return .success(previous)
        }
    }
}
