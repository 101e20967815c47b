import PlumProtocol

/// The settings requests (protocol 1.5): preset and named tares, the tare library, and an
/// `[[alert]]` rule's threshold and hysteresis set at runtime.
extension DaemonClient {
    /// Sets a known tare on `sensor` (a container weighed before), whatever is on the pan; the
    /// reply says the tare in use (rounded to d) or why the daemon refused it (`invalidWeight`
    /// outside 0 to the capacity, `uncalibrated`).
    public func presetTare(
        sensor: String, grams: Double, timeout: Duration = .seconds(10)
    ) throws(ClientError) -> CommandReply {
        try request(.presetTare(sensor: sensor, grams: grams), timeout: timeout) { Self.tareReply($0, sensor) }
    }

    /// Puts the named tare `name` into use on `sensor` as its preset tare; `reason` is
    /// `unknownTare` when the library has none of that name.
    public func useTare(
        _ name: String, sensor: String, timeout: Duration = .seconds(10)
    ) throws(ClientError) -> CommandReply {
        try request(.useTare(sensor: sensor, name: name), timeout: timeout) { Self.tareReply($0, sensor) }
    }

    /// The library of named tares (`?TARES`), or it after a save or delete.
    /// - Throws: ``ClientError`` `.daemonError` with the daemon's reason when a change is refused.
    public func tares(
        _ request: TareLibraryRequest = .list, timeout: Duration = .seconds(5)
    ) throws(ClientError) -> TareLibraryReport {
        try self.request(.tares(request), timeout: timeout) { report in
            if case .tares(let library) = report { library } else { nil }
        }
    }

    /// Sets (or clears) an `[[alert]]` rule's threshold and hysteresis; the rule's `ALERT` state with
    /// the values now in use.
    /// - Throws: ``ClientError`` `.daemonError` naming the alerts there are for an unknown name.
    public func setAlert(_ change: AlertChange, timeout: Duration = .seconds(5)) throws(ClientError) -> AlertReport {
        try request(.setAlert(change), timeout: timeout) { report in
            if case .alert(let alert) = report, alert.name == change.name { alert } else { nil }
        }
    }

    static func tareReply(_ report: Report, _ sensor: String) -> CommandReply? {
        if case .command(let reply) = report, reply.command == "TARE", reply.sensor == sensor { reply } else { nil }
    }
}

extension DaemonLink {
    /// Sets a known tare on `sensor`; see ``DaemonClient/presetTare(sensor:grams:timeout:)``.
    public func presetTare(
        sensor: String, grams: Double, timeout: Duration = .seconds(10)
    ) async throws(ClientError) -> CommandReply {
        try await request(.presetTare(sensor: sensor, grams: grams), timeout: timeout) {
            DaemonClient.tareReply($0, sensor)
        }
    }

    /// Puts a named tare into use on `sensor`; see ``DaemonClient/useTare(_:sensor:timeout:)``.
    public func useTare(
        _ name: String, sensor: String, timeout: Duration = .seconds(10)
    ) async throws(ClientError) -> CommandReply {
        try await request(.useTare(sensor: sensor, name: name), timeout: timeout) {
            DaemonClient.tareReply($0, sensor)
        }
    }

    /// The library of named tares, or it after a save or delete.
    public func tares(
        _ library: TareLibraryRequest = .list, timeout: Duration = .seconds(5)
    ) async throws(ClientError) -> TareLibraryReport {
        try await request(.tares(library), timeout: timeout) { report in
            if case .tares(let library) = report { library } else { nil }
        }
    }

    /// Sets (or clears) an `[[alert]]` rule's threshold and hysteresis.
    public func setAlert(_ change: AlertChange, timeout: Duration = .seconds(5)) async throws(ClientError)
        -> AlertReport
    {
        try await request(.setAlert(change), timeout: timeout) { report in
            if case .alert(let alert) = report, alert.name == change.name { alert } else { nil }
        }
    }
}
