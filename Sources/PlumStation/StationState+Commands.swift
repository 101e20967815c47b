internal import PlumCore
internal import PlumProtocol

/// The commands that reach the station besides the requests: a calibration's steps and a push
/// button's press.
extension StationState {
    /// A `?CALIBRATE` step that needs no stable load (begin, cancel, fit, commit, rollback) on
    /// its sensor's channel (``SensorChannel/answer(_:now:save:rollBack:)``); the calibration
    /// is saved to, or rolled back from, its file.
    mutating func calibrationReply(_ request: CalibrationRequest) -> Report {
        let store = files.calibrations
        let reply = update(request.sensor) { channel in
            channel.answer(
                request.step, now: UTCTimestamp.now(), save: store.saveReturningPath, rollBack: store.rollBack)
        }
        return reply ?? channels.unknownSensor(request.sensor)
    }

    /// What a push button's press did (a short press tares its sensors, a long press zeroes
    /// them, each on its next stable reading): each outcome is logged and goes to the sensor's
    /// watchers as a `BUTTON` report (``ReportBuilder/buttonReport(_:sensor:outcome:time:)``), so
    /// a client (the Home Assistant bridge) sees a press that did nothing, and why.
    mutating func buttonPressed(_ gesture: ButtonGesture, sensors: [String], outcomes: [WeighingOutcome]) {
        let time = UTCTimestamp.epochSeconds()
        for (sensor, outcome) in zip(sensors, outcomes) {
            let report = ReportBuilder.buttonReport(gesture, sensor: sensor, outcome: outcome, time: time)
            log(report.ok ? .notice : .warning, "button: \(sensor): \(report.message)")
            publish(.button(report), sensor: sensor)
        }
    }
}
