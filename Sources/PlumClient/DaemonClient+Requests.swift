import PlumProtocol

/// The requests by name, each one ``DaemonCall`` sent through ``DaemonClient/request(_:timeout:)``;
/// what each asks and answers is documented on its call. A nil timeout is the call's own.
extension DaemonClient {
    /// `?DEVICES`: the sensors, their states and statistics, and the daemon's uptime.
    public func devicesReport(timeout: Duration? = nil) throws(ClientError) -> DevicesReport {
        try request(.devices, timeout: timeout)
    }

    /// The configured sensors, their states and statistics (`?DEVICES`).
    public func devices(timeout: Duration? = nil) throws(ClientError) -> [DevicesReport.Device] {
        try devicesReport(timeout: timeout).devices
    }

    /// The sensors named, checked against the daemon's, in the order given; every sensor when
    /// `names` is empty.
    /// - Throws: ``ClientError`` `.unknownSensor` naming the sensors there are.
    public func sensors(_ names: [String], timeout: Duration? = nil) throws(ClientError) -> [DevicesReport.Device] {
        try devicesReport(timeout: timeout).sensors(names, socketPath: socketPath)
    }

    /// ``DaemonCall/poll``.
    public func poll(timeout: Duration? = nil) throws(ClientError) -> PollReport {
        try request(.poll, timeout: timeout)
    }

    /// ``DaemonCall/watch(_:)``; the reports follow through ``nextReport(timeout:)``.
    @discardableResult
    public func watch(_ options: WatchOptions = WatchOptions(), timeout: Duration? = nil) throws(ClientError)
        -> WatchOptions
    { try request(.watch(options), timeout: timeout) }

    /// ``DaemonCall/tare(sensor:)``.
    public func tare(sensor: String, timeout: Duration? = nil) throws(ClientError) -> CommandReply {
        try request(.tare(sensor: sensor), timeout: timeout)
    }

    /// ``DaemonCall/zero(sensor:)``.
    public func zero(sensor: String, timeout: Duration? = nil) throws(ClientError) -> CommandReply {
        try request(.zero(sensor: sensor), timeout: timeout)
    }

    /// ``DaemonCall/calibrate(_:)``.
    public func calibrate(_ step: CalibrationRequest, timeout: Duration? = nil) throws(ClientError) -> CalibrationReply
    {
        try request(.calibrate(step), timeout: timeout)
    }

    /// ``DaemonCall/presetTare(sensor:grams:)``.
    public func presetTare(sensor: String, grams: Double, timeout: Duration? = nil) throws(ClientError) -> CommandReply
    {
        try request(.presetTare(sensor: sensor, grams: grams), timeout: timeout)
    }

    /// ``DaemonCall/useTare(_:sensor:)``.
    public func useTare(_ name: String, sensor: String, timeout: Duration? = nil) throws(ClientError) -> CommandReply {
        try request(.useTare(name, sensor: sensor), timeout: timeout)
    }

    /// ``DaemonCall/tares(_:)``.
    public func tares(_ library: TareLibraryRequest = .list, timeout: Duration? = nil) throws(ClientError)
        -> TareLibraryReport
    { try request(.tares(library), timeout: timeout) }

    /// ``DaemonCall/setAlert(_:)``.
    public func setAlert(_ change: AlertChange, timeout: Duration? = nil) throws(ClientError) -> AlertReport {
        try request(.setAlert(change), timeout: timeout)
    }

    /// ``DaemonCall/session(_:)``.
    public func session(_ session: SessionRequest, timeout: Duration? = nil) throws(ClientError) -> SessionReport {
        try request(.session(session), timeout: timeout)
    }

    /// ``DaemonCall/count(sensor:pieces:optimize:)``.
    public func count(sensor: String, pieces: Int?, optimize: Bool? = nil, timeout: Duration? = nil) throws(ClientError)
        -> CountReply
    { try request(.count(sensor: sensor, pieces: pieces, optimize: optimize), timeout: timeout) }

    /// ``DaemonCall/check(sensor:target:minus:plus:cue:)``.
    public func check(
        sensor: String, target: Double?, minus: Double? = nil, plus: Double? = nil, cue: Bool? = nil,
        timeout: Duration? = nil
    ) throws(ClientError) -> CheckReply {
        try request(.check(sensor: sensor, target: target, minus: minus, plus: plus, cue: cue), timeout: timeout)
    }
}
