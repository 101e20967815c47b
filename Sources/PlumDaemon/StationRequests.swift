public import PlumProtocol
import PlumConfig
import PlumCore
import PlumDrivers

/// The requests the station answers: POLL, DEVICES, TARE, ZERO and CALIBRATE.
extension Station {
    /// The reply lines for `request`; an unknown sensor gets an error naming the ones there are.
    public func reply(to request: Request) async -> [String] {
        switch request {
        case .poll:
            return [poll()]
        case .devices:
            return [devices()]
        case .tare(let sensor):
            return [command("TARE", sensor) { engine in engine.tareNow().map { ("tare", $0) } }]
        case .zero(let sensor):
            return [command("ZERO", sensor) { engine in engine.zero().map { ("offset", $0) } }]
        case .calibrate(let calibrate):
            return await calibration(calibrate)
        case .watch, .version:
            return [ProtocolError("?WATCH and ?VERSION are answered by the connection itself").report]
        }
    }

    private func unknownSensor(_ name: String) -> String {
        ProtocolError("unknown sensor \"\(name)\"; sensors: " + sensorNames.map { "\"\($0)\"" }.joined(separator: ", ")).report
    }

    func poll() -> String {
        let heaviest = heaviestNames()
        var weights: [JSONWriter] = []
        for name in sensorNames {
            guard let entry = entry(name), let reading = entry.latest else { continue }
            weights.append(Self.weightReport(reading, sensor: name, time: UTCTimestamp.epochSeconds(), heaviest: heaviest.contains(name)))
        }
        let summary = ScaleGroup.summarize(sensorNames.compactMap { entry($0)?.latest })
        var json = JSONWriter()
        json.add("class", "POLL")
        json.add("time", UTCTimestamp.epochSeconds())
        json.add("active", weights.count)
        switch summary.total {
        case .grams(let total): json.add("total", total)
        case .unavailable(let reason):
            json.addNull("total")
            json.add("total_reason", reason)
        }
        json.add("weights", objects: weights)
        return json.line
    }

    func devices() -> String {
        var devices: [JSONWriter] = []
        for name in sensorNames {
            guard let entry = entry(name) else { continue }
            var json = JSONWriter()
            json.add("sensor", name)
            json.add("index", entry.index)
            json.add("kind", entry.configuration.kind.rawValue)
            let status = entry.sampler?.status
            json.add("wiring", status?.info?.wiring ?? "")
            json.add("state", status?.state.name ?? "starting")
            if let reason = status?.state.reason { json.add("reason", reason) }
            json.add("rate", status?.achievedRate ?? 0)
            json.add("nominal_rate", status?.info?.nominalRate ?? 0)
            let statistics = status?.statistics ?? DriverStatistics()
            json.add("published", statistics.published)
            var discarded = JSONWriter()
            for (key, count) in statistics.discarded.byKey { discarded.add(key, count) }
            discarded.add("buffer", status?.droppedByBuffer ?? 0)
            json.add("discarded", object: discarded)
            json.add("not_ready", statistics.notReady)
            json.add("faults", status?.faults ?? 0)
            json.add("notices", strings: status?.info?.notices ?? [])
            if let calibration = entry.engine.calibration {
                json.add("calibrated", true)
                json.add("calibration_date", calibration.createdAt)
                json.add("calibration_quality", calibration.quality.summary)
            } else {
                json.add("calibrated", false)
                json.add("calibration_reason", entry.engine.uncalibratedReason ?? "not calibrated")
            }
            devices.append(json)
        }
        var json = JSONWriter()
        json.add("class", "DEVICES")
        json.add("devices", objects: devices)
        return json.line
    }

    /// Runs a zero or tare on `name`'s engine and says what happened or why not.
    private func command(
        _ kind: String, _ name: String, _ body: (inout WeighingEngine) -> Result<(String, Double), Refusal>
    ) -> String {
        guard var entry = entry(name) else { return unknownSensor(name) }
        let result = body(&entry.engine)
        store(entry)
        var json = JSONWriter()
        json.add("class", kind)
        json.add("sensor", name)
        switch result {
        case .success(let (key, grams)):
            json.add("ok", true)
            json.add(key, grams)
        case .failure(let refusal):
            json.add("ok", false)
            json.add("reason", refusal.code.rawValue)
            json.add("message", refusal.description)
        }
        return json.line
    }

    private func calibration(_ request: CalibrationRequest) async -> [String] {
        guard var entry = entry(request.sensor) else { return [unknownSensor(request.sensor)] }
        switch request.step {
        case .begin:
            entry.engine.beginCalibration()
            store(entry)
            return [calibrationReply(request.sensor, .begin, ok: true, entry: entry,
                                     message: "calibration begun: empty the pan, then send step \"zero\"")]
        case .rollback:
            let result = rollBackCalibration(&entry)
            store(entry)
            switch result {
            case .failure(let refused):
                return [calibrationReply(request.sensor, .rollback, ok: false, entry: entry, message: refused.message)]
            case .success(let previous):
                var json = fitReport(request.sensor, .rollback, previous)
                json.add("calibration_date", previous.createdAt)
                json.add("message", "the calibration of \(previous.createdAt) is in use again")
                return [json.line]
            }
        case .cancel:
            entry.engine.cancelCalibration()
            store(entry)
            return [calibrationReply(request.sensor, .cancel, ok: true, entry: entry, message: "calibration cancelled; the calibration in use is unchanged")]
        case .fit:
            switch entry.engine.previewCalibration(createdAt: UTCTimestamp.now()) {
            case .failure(let refusal):
                return [calibrationReply(request.sensor, .fit, ok: false, entry: entry, message: refusal.description)]
            case .success(let calibration):
                var json = fitReport(request.sensor, .fit, calibration)
                json.add("message", "not in use yet: send step \"commit\" to use and save it, \"point\" to add a weight, or \"cancel\"")
                return [json.line]
            }
        case .commit:
            switch entry.engine.commitCalibration(createdAt: UTCTimestamp.now()) {
            case .failure(let refusal):
                store(entry)
                return [calibrationReply(request.sensor, .commit, ok: false, entry: entry, message: refusal.description)]
            case .success(let calibration):
                store(entry)
                var json = fitReport(request.sensor, .commit, calibration)
                switch storeCalibration(calibration) {
                case .success(let path):
                    json.add("saved", path)
                case .failure(let error):
                    json.addNull("saved")
                    json.add("message", "the calibration is in use but was not saved: \(error)")
                }
                return [json.line]
            }
        case .zero, .point:
            if entry.capture != nil {
                return [calibrationReply(request.sensor, request.step, ok: false, entry: entry,
                                         message: "a capture is already waiting for stable on \(request.sensor)")]
            }
            let started = request.step == .zero
                ? entry.engine.captureZero()
                : entry.engine.captureWeight(grams: request.grams ?? 0)
            if case .failure(let refusal) = started {
                store(entry)
                return [calibrationReply(request.sensor, request.step, ok: false, entry: entry, message: refusal.description)]
            }
            store(entry)
            let token = newToken()
            let timeout = captureTimeout
            return await withCheckedContinuation { continuation in
                setCapture(request.sensor, PendingCapture(token: token, step: request.step, grams: request.grams ?? 0, reply: continuation))
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.expireCapture(request.sensor, token: token)
                }
            }
        }
    }

    /// A `CALIBRATE` reply that shows a fit: its points, residuals and quality.
    private func fitReport(_ name: String, _ step: CalibrationRequest.Step, _ calibration: Calibration) -> JSONWriter {
        var json = JSONWriter()
        json.add("class", "CALIBRATE")
        json.add("sensor", name)
        json.add("step", step.rawValue)
        json.add("ok", true)
        json.add("points", calibration.points.count)
        json.add("grams", numbers: calibration.points.map(\.grams))
        json.add("residuals", numbers: calibration.residuals)
        json.add("quality", calibration.quality.summary)
        if let notice = calibration.notice { json.add("notice", notice) }
        return json
    }

    /// Ends a capture that found no stable load in time.
    func expireCapture(_ name: String, token: UInt64) {
        guard var entry = entry(name), let capture = entry.capture, capture.token == token else { return }
        entry.capture = nil
        let unchanged = entry.engine.procedure?.unchangedSince
        entry.engine.cancelCapture()
        store(entry)
        let message = if let unchanged, capture.step == .point {
            "the load did not change within \(captureTimeout.formattedMilliseconds): the pan still holds the load of the \(Self.grams(unchanged)) point; place the \(Self.grams(capture.grams)) weight and send the step again"
        } else {
            "no stable reading within \(captureTimeout.formattedMilliseconds): keep the pan still (no draughts, no touching) and send the step again"
        }
        capture.reply.resume(returning: [calibrationReply(name, capture.step, ok: false, entry: entry, message: message)])
    }

    func calibrationReply(_ name: String, _ step: CalibrationRequest.Step, ok: Bool, entry: Entry, message: String) -> String {
        var json = JSONWriter()
        json.add("class", "CALIBRATE")
        json.add("sensor", name)
        json.add("step", step.rawValue)
        json.add("ok", ok)
        json.add("points", entry.engine.procedure?.points.count ?? 0)
        json.add("message", message)
        return json.line
    }
}
