import PlumProtocol

/// One request to plumscaled and how its answer is known among the reports that come back,
/// declared once here for every client: ``DaemonClient`` (blocking), ``AsyncDaemonClient`` and
/// ``DaemonLink`` each send it through their one generic `request(_:)`.
///
/// ```swift
/// let reply = try client.request(.tare(sensor: "left"))            // blocking
/// let reply = try await link.request(.tare(sensor: "left"))        // async, reconnecting
/// ```
/// A call of one's own is a request and a matcher: `DaemonCall(.poll) { report in … }`.
public struct DaemonCall<Answer: Sendable>: Sendable {
    public var request: Request
    /// How long to wait for the answer.
    public var timeout: Duration
    /// Whether the call may be sent again on a new connection when the daemon restarted before
    /// answering: true for reading requests, tare and zero, and sessions (a second start is
    /// refused); false for a calibration step, where a second `point` would add a second point.
    public var repeatable: Bool
    /// The answer in a report, or nil for a report that is not it (a streamed one, another
    /// sensor's); an `ERROR` report ends the call with ``ClientError``.
    public var answer: @Sendable (Report) -> Answer?

    public init(
        _ request: Request, timeout: Duration = .seconds(5), repeatable: Bool = true,
        answer: @escaping @Sendable (Report) -> Answer?
    ) {
        self.request = request
        self.timeout = timeout
        self.repeatable = repeatable
        self.answer = answer
    }

    /// The same call with another timeout; nil keeps the call's own.
    public func timeout(_ timeout: Duration?) -> Self {
        var call = self
        if let timeout { call.timeout = timeout }
        return call
    }
}

// MARK: - Reading

extension DaemonCall where Answer == DevicesReport {
    /// The configured sensors, their states and statistics, and the daemon's uptime (`?DEVICES`).
    public static var devices: Self {
        DaemonCall(.devices) { if case .devices(let devices) = $0 { devices } else { nil } }
    }
}

extension DaemonCall where Answer == PollReport {
    /// The latest reading of every sensor (`?POLL`).
    public static var poll: Self {
        DaemonCall(.poll) { if case .poll(let poll) = $0 { poll } else { nil } }
    }
}

extension DaemonCall where Answer == WatchOptions {
    /// Starts (or with `enable: false` stops) the stream of reports; the daemon's WATCH answer.
    public static func watch(_ options: WatchOptions = WatchOptions()) -> Self {
        DaemonCall(.watch(options)) { if case .watch(let answer) = $0 { answer } else { nil } }
    }
}

// MARK: - Zero, tare and calibration

extension DaemonCall where Answer == CommandReply {
    /// Tares `sensor`; the reply says whether the daemon did, and if not, why
    /// (``CommandReply/reason``, such as `notStable`).
    public static func tare(sensor: String) -> Self {
        DaemonCall(.tare(sensor: sensor), timeout: .seconds(10)) { command("TARE", sensor, $0) }
    }

    /// Sets zero on `sensor` (only near zero; otherwise the daemon refuses).
    public static func zero(sensor: String) -> Self {
        DaemonCall(.zero(sensor: sensor), timeout: .seconds(10)) { command("ZERO", sensor, $0) }
    }

    /// Sets a known tare on `sensor` (a container weighed before), whatever is on the pan; the
    /// reply says the tare in use (rounded to d) or why the daemon refused it (`invalidWeight`
    /// outside 0 to the capacity, `uncalibrated`).
    public static func presetTare(sensor: String, grams: Double) -> Self {
        DaemonCall(.presetTare(sensor: sensor, grams: grams), timeout: .seconds(10)) { command("TARE", sensor, $0) }
    }

    /// Puts the named tare `name` into use on `sensor` as its preset tare; `reason` is
    /// `unknownTare` when the library has none of that name.
    public static func useTare(_ name: String, sensor: String) -> Self {
        DaemonCall(.useTare(sensor: sensor, name: name), timeout: .seconds(10)) { command("TARE", sensor, $0) }
    }

    private static func command(_ name: String, _ sensor: String, _ report: Report) -> CommandReply? {
        if case .command(let reply) = report, reply.command == name, reply.sensor == sensor { reply } else { nil }
    }
}

extension DaemonCall where Answer == CalibrationReply {
    /// One step of the known-weight calibration. A capture (`zero`, `point`) waits in the daemon
    /// for a stable load, hence the long timeout; never sent twice.
    public static func calibrate(_ step: CalibrationRequest) -> Self {
        DaemonCall(.calibrate(step), timeout: .seconds(60), repeatable: false) { report in
            if case .calibrate(let reply) = report, reply.sensor == step.sensor, reply.step == step.step.rawValue {
                reply
            } else {
                nil
            }
        }
    }
}

// MARK: - Settings (protocol 1.5)

extension DaemonCall where Answer == TareLibraryReport {
    /// The library of named tares (`?TARES`), or it after a save or delete; a refused change is
    /// a ``ClientError`` `.daemonError` with the daemon's reason.
    public static func tares(_ request: TareLibraryRequest = .list) -> Self {
        DaemonCall(.tares(request)) { if case .tares(let library) = $0 { library } else { nil } }
    }
}

extension DaemonCall where Answer == AlertReport {
    /// Sets (or clears) an `[[alert]]` rule's threshold and hysteresis; the rule's `ALERT` state
    /// with the values now in use. An unknown name is a ``ClientError`` naming the alerts there are.
    public static func setAlert(_ change: AlertChange) -> Self {
        DaemonCall(.setAlert(change)) { report in
            if case .alert(let alert) = report, alert.name == change.name { alert } else { nil }
        }
    }
}

// MARK: - Items (protocol 1.6 to 1.8)

extension DaemonCall where Answer == SessionReport {
    /// Starts, stops, shows or lists weighing sessions (`?SESSION`). A refusal (a session
    /// already running, none to stop, an unknown name) is a reply with `ok` false and a message
    /// that says what to do, not an error. Sent again after a restart: a second start is
    /// refused and a second stop finds none running, so neither does anything twice.
    public static func session(_ request: SessionRequest) -> Self {
        let action = request.action.rawValue
        return DaemonCall(.session(request)) { report in
            if case .session(let reply) = report, reply.action == action { reply } else { nil }
        }
    }
}

extension DaemonCall where Answer == CountReply {
    /// Piece counting (`?COUNT`): the stable load on `sensor` is `pieces` pieces, and its
    /// `WEIGHT` reports then carry the count; nil `pieces` stops counting. A load still moving
    /// is refused with reason `notStable`. `optimize`: the reference is updated as more pieces
    /// are added (protocol 1.8).
    public static func count(sensor: String, pieces: Int?, optimize: Bool? = nil) -> Self {
        DaemonCall(.count(CountRequest(sensor: sensor, pieces: pieces, optimize: optimize))) { report in
            if case .count(let reply) = report, reply.sensor == sensor { reply } else { nil }
        }
    }
}

extension DaemonCall where Answer == CheckReply {
    /// Check-weighing (`?CHECK`): `sensor`'s stable `WEIGHT` reports then say `under`, `ok` or
    /// `over` `target` − `minus` to `target` + `plus` grams; with `cue` an ok pulses the cue
    /// output. A nil `target` stops it.
    public static func check(
        sensor: String, target: Double?, minus: Double? = nil, plus: Double? = nil, cue: Bool? = nil
    ) -> Self {
        DaemonCall(.check(CheckRequest(sensor: sensor, target: target, minus: minus, plus: plus, cue: cue))) {
            if case .check(let reply) = $0, reply.sensor == sensor { reply } else { nil }
        }
    }
}

extension DevicesReport {
    /// The sensors named, checked against the daemon's, in the order given; every sensor when
    /// `names` is empty.
    /// - Throws: ``ClientError`` `.unknownSensor` naming the sensors there are.
    func sensors(_ names: [String], socketPath: String) throws(ClientError) -> [Device] {
        guard !names.isEmpty else { return devices }
        return try names.map { name throws(ClientError) in
            guard let device = devices.first(where: { $0.sensor == name }) else {
                throw ClientError(
                    .unknownSensor, socketPath: socketPath,
                    "no sensor named \"\(name)\"; this daemon has: \(devices.map(\.sensor).joined(separator: ", "))")
            }
            return device
        }
    }
}
