import PlumProtocol

extension DaemonLink {
    /// The configured sensors, their states and statistics (`?DEVICES`).
    public func devices(timeout: Duration = .seconds(5)) async throws(ClientError) -> [DevicesReport.Device] {
        try await devicesReport(timeout: timeout).devices
    }

    /// The whole `?DEVICES` answer, with the daemon's uptime.
    public func devicesReport(timeout: Duration = .seconds(5)) async throws(ClientError) -> DevicesReport {
        try await request(.devices, timeout: timeout) { report in
            if case .devices(let devices) = report { devices } else { nil }
        }
    }

    /// The latest reading of every sensor (`?POLL`).
    public func poll(timeout: Duration = .seconds(5)) async throws(ClientError) -> PollReport {
        try await request(.poll, timeout: timeout) { report in
            if case .poll(let poll) = report { poll } else { nil }
        }
    }

    /// Tares `sensor`; the reply says whether the daemon did, and if not, why.
    public func tare(sensor: String, timeout: Duration = .seconds(10)) async throws(ClientError) -> CommandReply {
        try await request(.tare(sensor: sensor), timeout: timeout) { report in
            if case .command(let reply) = report, reply.command == "TARE", reply.sensor == sensor { reply } else { nil }
        }
    }

    /// Sets zero on `sensor` (only near zero; otherwise the daemon refuses).
    public func zero(sensor: String, timeout: Duration = .seconds(10)) async throws(ClientError) -> CommandReply {
        try await request(.zero(sensor: sensor), timeout: timeout) { report in
            if case .command(let reply) = report, reply.command == "ZERO", reply.sensor == sensor { reply } else { nil }
        }
    }

    /// One step of the known-weight calibration. Never sent twice: a second `point` would add
    /// a second point.
    public func calibrate(
        _ step: CalibrationRequest, timeout: Duration = .seconds(60)
    ) async throws(ClientError) -> CalibrationReply {
        try await request(.calibrate(step), timeout: timeout) { report in
            if case .calibrate(let reply) = report, reply.sensor == step.sensor, reply.step == step.step.rawValue {
                reply
            } else {
                nil
            }
        }
    }

    /// Sends `request` on the requests' connection and returns the first report `answer` accepts.
    ///
    /// A connection the daemon dropped since the last request (it restarted) is opened again
    /// and the request sent once more, unless it is a calibration step: reading requests, tare
    /// and zero come to no harm when sent twice (a tare sets the same offset again).
    /// - Throws: ``ClientError``: `.noDaemon` or `.permissionDenied` naming the socket and what
    ///   to do when the daemon cannot be reached; `.daemonError` or `.unknownSensor` when it
    ///   refuses (the link is fine); `.connectionLost` or `.timedOut` otherwise.
    public func request<Answer: Sendable>(
        _ request: Request, timeout: Duration = .seconds(5), answer: @escaping @Sendable (Report) -> Answer?
    ) async throws(ClientError) -> Answer {
        var retried = false
        if case .calibrate = request { retried = true }
        while true {
            let client = try await requestConnection(for: request)
            do {
                return try await client.request(request, timeout: timeout, answer: answer)
            } catch {
                switch error.code {
                case .daemonError, .unknownSensor:
                    throw error
                default:
                    // Lost, timed out (a late answer would be in the next one's way) or garbled:
                    // the connection is done with.
                    dropRequestConnection(client)
                    guard error.code == .connectionLost, !retried, !Task.isCancelled else { throw error }
                    retried = true
                }
            }
        }
    }
}
