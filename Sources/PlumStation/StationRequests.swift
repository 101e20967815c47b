internal import PlumDaemonConfig
internal import PlumCore
internal import PlumDrivers
internal import PlumHardware
package import PlumProtocol

/// The requests the station answers: POLL, DEVICES, TARE, ZERO and CALIBRATE.
extension Station {
    /// The reply lines for `request`; an unknown sensor gets an error naming the ones there are.
    package func reply(to request: Request) async -> [Report] {
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
        let names = sensorNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return .error(message: "unknown sensor \"\(name)\"; sensors: " + names)
    }

    /// Every sensor's weight now: a live one's latest reading with the time its sample was
    /// taken, a sensor in an outage as unavailable (no grams, `stale`, its age); the total
    /// only when every pan is live.
    func poll() -> Report {
        let heaviest = heaviestNames()
        let now = SystemMonotonicClock().now()
        var weights: [WeightReport] = []
        var live = 0
        for name in sensorNames {
            guard let entry = entry(name) else { continue }
            if entry.outage != nil {
                weights.append(unavailableReport(entry, now: now))
                continue
            }
            guard let reading = entry.latest else { continue }
            live += 1
            weights.append(
                Self.weightReport(
                    reading, sensor: name, time: WallClock.seconds(at: entry.latestTime ?? now),
                    heaviest: heaviest.contains(name)))
        }
        let summary = ScaleGroup.summarize(sensorNames.compactMap { entry($0)?.current })
        var report = PollReport(time: WallClock.seconds(at: now), active: live, weights: weights)
        if let out = sensorNames.lazy.compactMap({ self.entry($0) }).first(where: { $0.outage != nil }),
            let outage = out.outage
        {
            report.totalReason = "sensor \(out.name) is \(outage)"
        } else {
            switch summary.total {
            case .grams(let total): report.total = total.isFinite ? total : nil
            case .unavailable(let reason): report.totalReason = reason
            }
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
                discarded: Dictionary(
                    uniqueKeysWithValues: statistics.discarded.byKey.map { ($0.key, Int(clamping: $0.count)) }
                        + [("buffer", Int(clamping: status?.droppedByBuffer ?? 0))]),
                notReady: Int(clamping: statistics.notReady), faults: Int(clamping: status?.faults ?? 0),
                notices: status?.info?.notices ?? [], calibrated: entry.engine.calibration != nil,
                capacity: entry.engine.configuration.capacity, profile: entry.profile)
            device.lastFault = status?.lastFault
            if let calibration = entry.engine.calibration {
                device.calibrationDate = calibration.createdAt
                device.calibrationQuality = calibration.quality.summary
                device.calibrationGrade = calibration.quality.grade.rawValue
            } else {
                device.calibrationReason = entry.engine.uncalibratedReason ?? "not calibrated"
            }
            Self.reportZeroTare(entry, in: &device)
            devices.append(device)
        }
        let uptime = SystemMonotonicClock().now().nanoseconds &- started.nanoseconds
        return .devices(DevicesReport(devices: devices, uptime: Double(uptime / 100_000_000) / 10))
    }

    /// Runs a zero or tare on `name`'s engine and says what happened or why not.
    private func command(
        _ kind: String, _ name: String, _ body: (inout WeighingEngine) -> Result<(String, Double), Refusal>
    ) -> Report {
        guard var entry = entry(name) else { return unknownSensor(name) }
        let result = body(&entry.engine)
        if case .success = result { saveZeroTare(&entry) }
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

    /// A `?CALIBRATE` step on its sensor's calibration session; a zero or point waits for its
    /// stable capture, or for the capture timeout.
    private func calibration(_ request: CalibrationRequest) async -> [Report] {
        guard var entry = entry(request.sensor) else { return [unknownSensor(request.sensor)] }
        switch request.step {
        case .begin, .cancel, .fit, .commit, .rollback:
            let before = entry.engine.zeroTareState
            let reply = entry.calibration.answer(
                request.step, engine: &entry.engine, now: UTCTimestamp.now(), save: storeCalibration,
                rollBack: rollBackCalibration)
            // A commit or rollback puts another calibration into use, with zero and tare afresh:
            // what was saved under the old one must not come back after a restart.
            if entry.engine.zeroTareState != before { saveZeroTare(&entry) }
            store(entry)
            return [reply]
        case .zero, .point:
            if let refusal = entry.calibration.startCapture(request.step, grams: request.grams, engine: &entry.engine) {
                store(entry)
                return [refusal]
            }
            store(entry)
            let token = newToken()
            let timeout = captureTimeout
            return await withCheckedContinuation { continuation in
                waitForCapture(
                    request.sensor,
                    .init(
                        token: token, step: request.step, grams: request.grams ?? 0, reply: continuation))
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.expireCapture(request.sensor, token: token)
                }
            }
        }
    }

    /// Ends a capture that found no stable load in time.
    func expireCapture(_ name: String, token: UInt64) {
        guard var entry = entry(name) else { return }
        entry.calibration.expire(token, timeout: captureTimeout, engine: &entry.engine)
        store(entry)
    }
}
