import PlumProtocol

/// What the async clients share: ``AsyncDaemonClient`` (one connection) and ``DaemonLink`` (a
/// connection opened again after a restart) each send a ``DaemonCall`` through their one
/// `request(_:timeout:)`, and the requests by name below are written once for both.
public protocol AsyncDaemonRequests: Sendable {
    /// Sends `call`'s request and returns the first report its matcher accepts.
    /// - Parameter timeout: overrides the call's own when not nil.
    func request<Answer: Sendable>(_ call: DaemonCall<Answer>, timeout: Duration?) async throws(ClientError) -> Answer
}

extension AsyncDaemonRequests {
    /// `?DEVICES`: the sensors, their states and statistics, and the daemon's uptime.
    public func devicesReport(timeout: Duration? = nil) async throws(ClientError) -> DevicesReport {
        try await request(.devices, timeout: timeout)
    }

    /// The configured sensors, their states and statistics (`?DEVICES`).
    public func devices(timeout: Duration? = nil) async throws(ClientError) -> [DevicesReport.Device] {
        try await devicesReport(timeout: timeout).devices
    }

    /// ``DaemonCall/poll``.
    public func poll(timeout: Duration? = nil) async throws(ClientError) -> PollReport {
        try await request(.poll, timeout: timeout)
    }

    /// ``DaemonCall/tare(sensor:)``.
    public func tare(sensor: String, timeout: Duration? = nil) async throws(ClientError) -> CommandReply {
        try await request(.tare(sensor: sensor), timeout: timeout)
    }

    /// ``DaemonCall/zero(sensor:)``.
    public func zero(sensor: String, timeout: Duration? = nil) async throws(ClientError) -> CommandReply {
        try await request(.zero(sensor: sensor), timeout: timeout)
    }

    /// ``DaemonCall/calibrate(_:)``.
    public func calibrate(_ step: CalibrationRequest, timeout: Duration? = nil) async throws(ClientError)
        -> CalibrationReply
    { try await request(.calibrate(step), timeout: timeout) }

    /// ``DaemonCall/presetTare(sensor:grams:)``.
    public func presetTare(sensor: String, grams: Double, timeout: Duration? = nil) async throws(ClientError)
        -> CommandReply
    { try await request(.presetTare(sensor: sensor, grams: grams), timeout: timeout) }

    /// ``DaemonCall/useTare(_:sensor:)``.
    public func useTare(_ name: String, sensor: String, timeout: Duration? = nil) async throws(ClientError)
        -> CommandReply
    { try await request(.useTare(name, sensor: sensor), timeout: timeout) }

    /// ``DaemonCall/tares(_:)``.
    public func tares(_ library: TareLibraryRequest = .list, timeout: Duration? = nil) async throws(ClientError)
        -> TareLibraryReport
    { try await request(.tares(library), timeout: timeout) }

    /// ``DaemonCall/setAlert(_:)``.
    public func setAlert(_ change: AlertChange, timeout: Duration? = nil) async throws(ClientError) -> AlertReport {
        try await request(.setAlert(change), timeout: timeout)
    }

    /// ``DaemonCall/session(_:)``.
    public func session(_ session: SessionRequest, timeout: Duration? = nil) async throws(ClientError)
        -> SessionReport
    { try await request(.session(session), timeout: timeout) }
}
