import PlumProtocol

extension DaemonClient {
    /// The configured sensors, their states and statistics (`?DEVICES`).
    public func devices(timeout: Duration = .seconds(5)) throws(ClientError) -> [DevicesReport.Device] {
        try request(.devices, timeout: timeout) { report in
            if case .devices(let devices) = report { devices.devices } else { nil }
        }
    }

    /// The sensors named, checked against the daemon's, in the order given; every sensor when
    /// `names` is empty.
    /// - Throws: ``ClientError`` `.unknownSensor` naming the sensors there are.
    public func sensors(
        _ names: [String], timeout: Duration = .seconds(5)
    ) throws(ClientError) -> [DevicesReport.Device] {
        let all = try devices(timeout: timeout)
        guard !names.isEmpty else { return all }
        return try names.map { name throws(ClientError) in
            guard let device = all.first(where: { $0.sensor == name }) else {
                throw ClientError(
                    .unknownSensor, socketPath: socketPath,
                    "no sensor named \"\(name)\"; this daemon has: \(all.map(\.sensor).joined(separator: ", "))")
            }
            return device
        }
    }

    /// The latest reading of every sensor (`?POLL`).
    public func poll(timeout: Duration = .seconds(5)) throws(ClientError) -> PollReport {
        try request(.poll, timeout: timeout) { report in
            if case .poll(let poll) = report { poll } else { nil }
        }
    }

    /// Starts (or with `enable: false` stops) the stream of reports, and returns the daemon's
    /// WATCH answer; the reports follow through ``nextReport(timeout:)``.
    @discardableResult
    public func watch(
        _ options: WatchOptions = WatchOptions(), timeout: Duration = .seconds(5)
    ) throws(ClientError) -> WatchOptions {
        try request(.watch(options), timeout: timeout) { report in
            if case .watch(let answer) = report { answer } else { nil }
        }
    }

    /// Asks the daemon to tare `sensor`; the reply says whether it did, and if not, why
    /// (``CommandReply/reason``, such as `notStable`).
    public func tare(sensor: String, timeout: Duration = .seconds(10)) throws(ClientError) -> CommandReply {
        try request(.tare(sensor: sensor), timeout: timeout) { report in
            if case .command(let reply) = report, reply.command == "TARE", reply.sensor == sensor { reply } else { nil }
        }
    }

    /// Asks the daemon to set zero on `sensor` (only near zero; otherwise it refuses).
    public func zero(sensor: String, timeout: Duration = .seconds(10)) throws(ClientError) -> CommandReply {
        try request(.zero(sensor: sensor), timeout: timeout) { report in
            if case .command(let reply) = report, reply.command == "ZERO", reply.sensor == sensor { reply } else { nil }
        }
    }

    /// One step of the known-weight calibration; a capture (`zero`, `point`) waits in the
    /// daemon for a stable load, hence the longer default timeout.
    public func calibrate(
        _ step: CalibrationRequest, timeout: Duration = .seconds(60)
    ) throws(ClientError) -> CalibrationReply {
        try request(.calibrate(step), timeout: timeout) { report in
            if case .calibrate(let reply) = report, reply.sensor == step.sensor, reply.step == step.step.rawValue {
                reply
            } else {
                nil
            }
        }
    }
}
