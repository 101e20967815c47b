public import PlumProtocol
import PlumConfig
import PlumCore
import PlumDrivers

/// The requests the station answers: POLL, DEVICES, TARE, ZERO and CALIBRATE.
extension Station {
    /// The reply lines for `request`; an unknown sensor gets an error naming the ones there are.
    public func reply(to request: Request) async -> [Report] {
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
            return [.error(message: "?WATCH and ?VERSION are answered by the connection itself")]
        }
    }

    private func unknownSensor(_ name: String) -> Report {
        .error(message: "unknown sensor \"\(name)\"; sensors: " + sensorNames.map { "\"\($0)\"" }.joined(separator: ", "))
    }

    func poll() -> Report {
        let heaviest = heaviestNames()
        var weights: [WeightReport] = []
        for name in sensorNames {
            guard let entry = entry(name), let reading = entry.latest else { continue }
            weights.append(Self.weightReport(
                reading, sensor: name, time: UTCTimestamp.epochSeconds(), heaviest: heaviest.contains(name)))
        }
        let summary = ScaleGroup.summarize(sensorNames.compactMap { entry($0)?.latest })
        var report = PollReport(time: UTCTimestamp.epochSeconds(), active: weights.count, weights: weights)
        switch summary.total {
        case .grams(let total): report.total = total.isFinite ? total : nil
        case .unavailable(let reason): report.totalReason = reason
        }
        return .poll(report)
    }

    func devices() -> Report {
        var devices: [DevicesReport.Device] = []
        for name in sensorNames {
            guard let entry = entry(name) else { continue }
            let status = entry.sampler?.status
            let statistics = status?.statistics ?? DriverStatistics()
            var device = DevicesReport.Device(
                sensor: name, index: entry.index, kind: entry.configuration.kind.rawValue,
                wiring: status?.info?.wiring ?? "", state: status?.state.name ?? "starting",
                reason: status?.state.reason, rate: status?.achievedRate ?? 0,
                nominalRate: status?.info?.nominalRate ?? 0, published: Int(clamping: statistics.published),
                discarded: [
                    "stretched_clock": Int(clamping: statistics.discarded.stretchedClock),
                    "integrity": Int(clamping: statistics.discarded.integrity),
                    "settling": Int(clamping: statistics.discarded.settling),
                    "stale": Int(clamping: statistics.discarded.stale),
                    "buffer": Int(clamping: status?.droppedByBuffer ?? 0),
                ],
                notReady: Int(clamping: statistics.notReady), faults: Int(clamping: status?.faults ?? 0),
                notices: status?.info?.notices ?? [], calibrated: entry.engine.calibration != nil)
            if let calibration = entry.engine.calibration {
                device.calibrationDate = calibration.createdAt
                device.calibrationQuality = calibration.quality.summary
            } else {
                device.calibrationReason = entry.engine.uncalibratedReason ?? "not calibrated"
            }
            devices.append(device)
        }
        return .devices(DevicesReport(devices: devices))
    }

    /// Runs a zero or tare on `name`'s engine and says what happened or why not.
    private func command(
        _ kind: String, _ name: String, _ body: (inout WeighingEngine) -> Result<(String, Double), Refusal>
    ) -> Report {
        guard var entry = entry(name) else { return unknownSensor(name) }
        let result = body(&entry.engine)
        store(entry)
        var reply = CommandReply(command: kind, sensor: name, ok: false)
        switch result {
        case .success(let (key, grams)):
            reply.ok = true
            if key == "tare" { reply.tare = grams } else { reply.offset = grams }
        case .failure(let refusal):
            reply.reason = refusal.code.rawValue
            reply.message = refusal.description
        }
        return .command(reply)
    }

    private func calibration(_ request: CalibrationRequest) async -> [Report] {
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
                var reply = fitReport(request.sensor, .rollback, previous)
                reply.calibrationDate = previous.createdAt
                reply.message = "the calibration of \(previous.createdAt) is in use again"
                return [.calibrate(reply)]
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
                var reply = fitReport(request.sensor, .fit, calibration)
                reply.message = "not in use yet: send step \"commit\" to use and save it, \"point\" to add a weight, or \"cancel\""
                return [.calibrate(reply)]
            }
        case .commit:
            switch entry.engine.commitCalibration(createdAt: UTCTimestamp.now()) {
            case .failure(let refusal):
                store(entry)
                return [calibrationReply(request.sensor, .commit, ok: false, entry: entry, message: refusal.description)]
            case .success(let calibration):
                store(entry)
                var reply = fitReport(request.sensor, .commit, calibration)
                switch storeCalibration(calibration) {
                case .success(let path):
                    reply.saved = path
                case .failure(let error):
                    reply.message = "the calibration is in use but was not saved: \(error)"
                }
                return [.calibrate(reply)]
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
    private func fitReport(_ name: String, _ step: CalibrationRequest.Step, _ calibration: Calibration) -> CalibrationReply {
        CalibrationReply(
            sensor: name, step: step.rawValue, ok: true, points: calibration.points.count,
            grams: calibration.points.map(\.grams), residuals: calibration.residuals,
            quality: calibration.quality.summary, notice: calibration.notice)
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

    func calibrationReply(
        _ name: String, _ step: CalibrationRequest.Step, ok: Bool, entry: Entry, message: String
    ) -> Report {
        .calibrate(CalibrationReply(
            sensor: name, step: step.rawValue, ok: ok, points: entry.engine.procedure?.points.count ?? 0,
            message: message))
    }
}
