internal import PlumCore
internal import PlumProtocol

/// A `?CALIBRATE` request carried out on the station: each step goes to its sensor's channel
/// (``SensorChannel/answer(_:now:save:rollBack:)``); a zero or point capture waits for a
/// stable load in the turn of the reading that gives it, or for the capture timeout. Runs on
/// the station's actor, as ``ButtonPress`` does, so a capture and the readings keep one order.
enum CalibrationRequests {
    /// A `?CALIBRATE` step on its sensor's channel; a zero or point waits for its stable
    /// capture, or for the capture timeout.
    static func reply(to request: CalibrationRequest, on station: isolated Station) async -> [Report] {
        let name = request.sensor
        switch request.step {
        case .begin, .cancel, .fit, .commit, .rollback:
            let store = station.calibrationStore
            let reply = station.update(name) { channel in
                channel.answer(
                    request.step, now: UTCTimestamp.now(), save: store.saveReturningPath, rollBack: store.rollBack)
            }
            return [reply ?? station.channels.unknownSensor(name)]
        case .zero, .point:
            let token = station.waits.newToken()
            guard
                let refusal = station.update(
                    name, { $0.startCapture(request.step, grams: request.grams, token: token) })
            else { return [station.channels.unknownSensor(name)] }
            if let refusal { return [refusal] }
            let timeout = station.captureTimeout
            return await withCheckedContinuation { continuation in
                station.waits.waitForCapture(token, continuation)
                station.after(timeout) { expire(name, token: token, on: $0) }
            }
        }
    }

    /// Ends a capture that found no stable load in time.
    static func expire(_ name: String, token: UInt64, on station: isolated Station) {
        let timeout = station.captureTimeout
        guard let reply = station.update(name, { $0.expireCapture(token, timeout: timeout) }) ?? nil else { return }
        station.waits.resumeCapture(token, reply)
    }
}
