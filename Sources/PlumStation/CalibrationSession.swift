internal import PlumCore
internal import PlumDrivers
internal import PlumProtocol
internal import PlumStore

/// One sensor's `?CALIBRATE` workflow: the steps on the sensor's engine, the zero or point
/// capture waiting for a stable load, and the replies that say what happened and what to do
/// next. The station owns one per sensor and runs it in order with the samples; saving and
/// rolling back in the calibration store stay with the station, which passes them in.
struct CalibrationSession {
    /// A zero or point step waiting for its stable capture.
    struct PendingCapture {
        let token: UInt64
        let step: CalibrationRequest.Step
        let grams: Double
    }

    /// Why a rollback could not be done, in words for the client.
    struct RollbackRefused: Error {
        var message: String
    }

    let sensor: String
    private(set) var pending: PendingCapture?

    init(sensor: String) {
        self.sensor = sensor
    }

    /// Answers a step that needs no stable load: begin, cancel, fit, commit and rollback.
    /// - Parameters:
    ///   - now: the time stamp a new calibration is made with.
    ///   - save: stores a committed calibration; the path written, or why not.
    ///   - rollBack: puts the previous saved calibration back into the engine.
    func answer(
        _ step: CalibrationRequest.Step, engine: inout WeighingEngine, now: String,
        save: (Calibration) -> Result<String, CalibrationStoreError>,
        rollBack: (inout WeighingEngine) -> Result<Calibration, RollbackRefused>
    ) -> Report {
        switch step {
        case .begin:
            engine.beginCalibration()
            return reply(.begin, ok: true, engine, "calibration begun: empty the pan, then send step \"zero\"")
        case .cancel:
            engine.cancelCalibration()
            return reply(.cancel, ok: true, engine, "calibration cancelled; the calibration in use is unchanged")
        case .rollback:
            switch rollBack(&engine) {
            case .failure(let refused):
                return reply(.rollback, ok: false, engine, refused.message)
            case .success(let previous):
                var fit = fitReply(.rollback, previous)
                fit.calibrationDate = previous.createdAt
                fit.message = "the calibration of \(previous.createdAt) is in use again"
                return .calibrate(fit)
            }
        case .fit:
            switch engine.previewCalibration(createdAt: now) {
            case .failure(let refusal):
                return reply(.fit, ok: false, engine, refusal.description)
            case .success(let calibration):
                var fit = fitReply(.fit, calibration)
                fit.message =
                    "not in use yet: send step \"commit\" to use and save it, \"point\" to add a weight, "
                    + "or \"cancel\""
                return .calibrate(fit)
            }
        case .commit:
            switch engine.commitCalibration(createdAt: now) {
            case .failure(let refusal):
                return reply(.commit, ok: false, engine, refusal.description)
            case .success(let calibration):
                var fit = fitReply(.commit, calibration)
                switch save(calibration) {
                case .success(let path): fit.saved = path
                case .failure(let error): fit.message = "the calibration is in use but was not saved: \(error)"
                }
                return .calibrate(fit)
            }
        case .zero, .point:
            return reply(step, ok: false, engine, "\(step.rawValue) waits for a stable load; start it as a capture")
        }
    }

    /// Starts a zero or point capture on `engine`: nil when it now waits for a stable load
    /// (then ``wait(_:)`` parks the reply), or the reply that refuses it.
    func startCapture(_ step: CalibrationRequest.Step, grams: Double?, engine: inout WeighingEngine) -> Report? {
        if pending != nil {
            return reply(step, ok: false, engine, "a capture is already waiting for stable on \(sensor)")
        }
        let started = step == .zero ? engine.captureZero() : engine.captureWeight(grams: grams ?? 0)
        if case .failure(let refusal) = started { return reply(step, ok: false, engine, refusal.description) }
        return nil
    }

    /// Notes the capture that waits (the station keeps its reply under the token).
    mutating func wait(_ capture: PendingCapture) {
        pending = capture
    }

    /// A reading captured `point`: the waiting step's token and its answer.
    mutating func captured(_ point: CalibrationPoint, engine: WeighingEngine) -> (token: UInt64, reply: [Report])? {
        guard let capture = pending else { return nil }
        pending = nil
        let what = capture.step == .zero ? "zero" : ReportBuilder.grams(capture.grams)
        let signal = FixedPoint.text(point.signal, decimals: 1)
        return (
            capture.token,
            [
                reply(
                    capture.step, ok: true, engine,
                    "\(what) captured: signal \(signal) from \(point.samples) stable samples")
            ]
        )
    }

    /// Ends the capture with `token` that found no stable load within `timeout`, if it still
    /// waits, saying why and what to do: its answer.
    mutating func expire(_ token: UInt64, timeout: Duration, engine: inout WeighingEngine) -> [Report]? {
        guard let capture = pending, capture.token == token else { return nil }
        pending = nil
        let unchanged = engine.procedure?.unchangedSince
        engine.cancelCapture()
        let message =
            if let unchanged, capture.step == .point {
                "the load did not change within \(timeout.formattedMilliseconds): the pan still holds the load of the "
                    + "\(ReportBuilder.grams(unchanged)) point; place the \(ReportBuilder.grams(capture.grams)) "
                    + "weight and send the step again"
            } else {
                "no stable reading within \(timeout.formattedMilliseconds): keep the pan still (no draughts, no "
                    + "touching) and send the step again"
            }
        return [reply(capture.step, ok: false, engine, message)]
    }

    /// Ends a waiting capture whose points no longer fit (the settings were reloaded): its
    /// token and answer.
    mutating func abandon(_ message: String, engine: WeighingEngine) -> (token: UInt64, reply: [Report])? {
        guard let capture = pending else { return nil }
        pending = nil
        return (capture.token, [reply(capture.step, ok: false, engine, message)])
    }

    /// A `CALIBRATE` reply with the points so far and a message.
    func reply(_ step: CalibrationRequest.Step, ok: Bool, _ engine: WeighingEngine, _ message: String) -> Report {
        .calibrate(
            CalibrationReply(
                sensor: sensor, step: step.rawValue, ok: ok, points: engine.procedure?.points.count ?? 0,
                message: message))
    }

    /// A `CALIBRATE` reply that shows a fit: its points, residuals and quality.
    private func fitReply(_ step: CalibrationRequest.Step, _ calibration: Calibration) -> CalibrationReply {
        CalibrationReply(
            sensor: sensor, step: step.rawValue, ok: true, points: calibration.points.count,
            grams: calibration.points.map(\.grams), residuals: calibration.residuals,
            quality: calibration.quality.summary, notice: calibration.notice)
    }
}
