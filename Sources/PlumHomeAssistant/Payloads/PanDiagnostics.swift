import FoundationEssentials
internal import PlumProtocol

/// A pan's diagnostic figures, as its diagnostic entities in Home Assistant read them from one
/// retained JSON topic: the sensor's state and last fault, its calibration's date and grade, and
/// its late read-outs and discarded samples in the last hour. Every figure is the daemon's
/// (`?DEVICES` and `STATE`); the bridge only turns its counters into counts per hour.
///
/// Absent figures are sent as `null`, which Home Assistant shows as unknown.
struct PanDiagnostics: Hashable, Sendable, Encodable {
    /// ok, warming-up, settling, not-ready, fault, starting, ended or stopped.
    var state: String
    /// Why, for a sensor that is not ok.
    var reason: String?
    /// The last fault or not-ready state with its reason, kept after the sensor recovers.
    var lastFault: String?
    /// When the calibration in use was made (ISO 8601 UTC); nil when uncalibrated.
    var calibrationDate: String?
    /// `good`, `acceptable`, `poor`, `not-checked`; nil when uncalibrated.
    var calibrationGrade: String?
    /// Samples the driver discarded because they were read out too late, in the last hour.
    var lateReadoutsPerHour: Int
    /// Samples discarded for any reason (late read-outs among them), in the last hour.
    var discardsPerHour: Int

    /// Home Assistant's limit for a state; a fault reason can be longer.
    static let stateLimit = 255

    private enum CodingKeys: String, CodingKey {
        case state, reason
        case lastFault = "last_fault"
        case calibrationDate = "calibration_date"
        case calibrationGrade = "calibration_grade"
        case lateReadoutsPerHour = "late_readouts_per_hour"
        case discardsPerHour = "discards_per_hour"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
        try container.encode(lastFault.map(Self.shortened), forKey: .lastFault)
        try container.encode(calibrationDate, forKey: .calibrationDate)
        try container.encode(calibrationGrade, forKey: .calibrationGrade)
        try container.encode(lateReadoutsPerHour, forKey: .lateReadoutsPerHour)
        try container.encode(discardsPerHour, forKey: .discardsPerHour)
    }

    /// `text` within Home Assistant's 255 characters for a state.
    static func shortened(_ text: String) -> String {
        text.count > stateLimit ? String(text.prefix(stateLimit - 1)) + "…" : text
    }
}

/// The diagnostics of every pan, kept from one `?DEVICES` to the next: the hourly counts need
/// the counters' history, and a `STATE` report changes a pan's state between two.
struct DiagnosticsKeeper: Sendable {
    /// The discard reason the driver counts a late read-out under (`?DEVICES` `discarded`).
    static let lateReadout = "late_readout"

    /// The states the daemon keeps as a sensor's last fault (a `warming-up` has a reason too).
    static let faults: Set<String> = ["fault", "not-ready"]

    private var late: [String: HourlyCount] = [:]
    private var discards: [String: HourlyCount] = [:]
    private(set) var pans: [String: PanDiagnostics] = [:]
    /// The daemon's start on the wall clock, as last published.
    private(set) var started: Double?

    /// Takes a `?DEVICES` answer read at `time` (monotonic seconds).
    /// - Returns: the pans whose diagnostics changed, to publish.
    mutating func devices(_ report: DevicesReport, at time: Double) -> [String] {
        var changed: [String] = []
        for device in report.devices {
            let name = device.sensor
            late[name, default: HourlyCount()].record(device.discarded[Self.lateReadout] ?? 0, at: time)
            discards[name, default: HourlyCount()].record(device.discarded.values.reduce(0, +), at: time)
            let diagnostics = PanDiagnostics(
                state: device.state, reason: device.reason, lastFault: device.lastFault,
                calibrationDate: device.calibrationDate.flatMap(Self.timestamp),
                calibrationGrade: device.calibrationGrade,
                lateReadoutsPerHour: late[name]?.perHour(at: time) ?? 0,
                discardsPerHour: discards[name]?.perHour(at: time) ?? 0)
            if pans[name] != diagnostics {
                pans[name] = diagnostics
                changed.append(name)
            }
        }
        return changed
    }

    /// `text` when it is an ISO 8601 time, as Home Assistant's timestamp sensor needs; nil for
    /// another (the exact calibration of a simulated chip is dated "simulated chip").
    static func timestamp(_ text: String) -> String? {
        (try? Date(text, strategy: .iso8601)) == nil ? nil : text
    }

    /// Takes a `STATE` report: the pan's state now, and its last fault when it is one.
    /// - Returns: whether the pan's diagnostics changed (nil before its first `?DEVICES`).
    mutating func state(_ report: StateReport) -> Bool {
        guard var diagnostics = pans[report.sensor] else { return false }
        diagnostics.state = report.state
        diagnostics.reason = report.reason
        if let reason = report.reason, Self.faults.contains(report.state) {
            diagnostics.lastFault = "\(report.state): \(reason)"
        }
        guard diagnostics != pans[report.sensor] else { return false }
        pans[report.sensor] = diagnostics
        return true
    }

    /// Takes the daemon's `uptime` read at wall-clock `now` (seconds since the epoch):
    /// ``started`` changes only when the start moved by more than a minute (the daemon
    /// restarted, or the clock was set), so Home Assistant does not see each poll's jitter.
    /// - Returns: whether ``started`` changed.
    mutating func uptime(_ uptime: Double, now: Double) -> Bool {
        let start = now - uptime
        if let started, abs(started - start) <= 60 { return false }
        started = start
        return true
    }
}
