import FoundationEssentials

/// One line the daemon sends, decoded: the client side of the protocol.
///
/// Clients ignore classes and fields they do not know (``unknown(_:)``), so a newer daemon that
/// adds a report or a field does not break an older client.
public enum Report: Hashable, Sendable {
    case version(VersionReport)
    case watch(WatchOptions)
    case weight(WeightReport)
    /// A batch of raw samples, for watchers that asked for `"raw":true`.
    case raw(RawReport)
    case poll(PollReport)
    case devices(DevicesReport)
    /// The answer to `?TARE` or `?ZERO`.
    case command(CommandReply)
    case calibrate(CalibrationReply)
    case cue(CueReport)
    case state(StateReport)
    /// An `[[alert]]` rule raised or cleared (protocol 1.1).
    case alert(AlertReport)
    /// A press of the push button and its outcome on one sensor (protocol 1.4).
    case button(ButtonReport)
    /// A fruit put on or taken off a pan (protocol 1.5; ``ItemReport``).
    case item(ItemReport)
    /// The reply to `?SESSION`, or a running session's news to watchers (protocol 1.5).
    case session(SessionReport)
    /// The reply to `?COUNT` (protocol 1.5).
    case count(CountReply)
    /// The reply to `?CHECK` (protocol 1.5).
    case check(CheckReply)
    /// The daemon dropped this many of the oldest reports queued for a slow client.
    case overflow(dropped: Int)
    case error(message: String)
    /// A class this client does not know, by name.
    case unknown(String)
    /// The named tares: the answer to `?TARES`, and sent when the library changes (protocol 1.5).
    case tares(TareLibraryReport)
    /// The answer to `?CLIENT` (protocol 1.7).
    case client(ClientReply)

    /// Decodes one JSON line.
    /// - Throws: ``ProtocolError`` when the line is not a JSON object with a `class`, or a
    ///   known class lacks a field it must have.
    public static func decode(_ line: Substring) throws(ProtocolError) -> Report {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        let kind: String
        do {
            kind = try decoder.decode(ClassField.self, from: data).class
        } catch {
            throw ProtocolError(
                "not a report: a line from the daemon is a JSON object with a \"class\": \(line.prefix(80))")
        }
        do {
            switch kind {
            case "VERSION": return .version(try decoder.decode(VersionReport.self, from: data))
            case "WATCH": return .watch(try decoder.decode(WatchOptions.self, from: data))
            case "WEIGHT": return .weight(try decoder.decode(WeightReport.self, from: data))
            case "RAW": return .raw(try decoder.decode(RawReport.self, from: data))
            case "POLL": return .poll(try decoder.decode(PollReport.self, from: data))
            case "DEVICES": return .devices(try decoder.decode(DevicesReport.self, from: data))
            case "TARE", "ZERO": return .command(try decoder.decode(CommandReply.self, from: data))
            case "CALIBRATE": return .calibrate(try decoder.decode(CalibrationReply.self, from: data))
            case "CUE": return .cue(try decoder.decode(CueReport.self, from: data))
            case "STATE": return .state(try decoder.decode(StateReport.self, from: data))
            case "ALERT": return .alert(try decoder.decode(AlertReport.self, from: data))
            case "BUTTON": return .button(try decoder.decode(ButtonReport.self, from: data))
            case "ITEM": return .item(try decoder.decode(ItemReport.self, from: data))
            case "SESSION": return .session(try decoder.decode(SessionReport.self, from: data))
            case "COUNT": return .count(try decoder.decode(CountReply.self, from: data))
            case "CHECK": return .check(try decoder.decode(CheckReply.self, from: data))
            case "OVERFLOW": return .overflow(dropped: try decoder.decode(Overflow.self, from: data).dropped)
            case "TARES": return .tares(try decoder.decode(TareLibraryReport.self, from: data))
            case "CLIENT": return .client(try decoder.decode(ClientReply.self, from: data))
            case "ERROR": return .error(message: try decoder.decode(ErrorReport.self, from: data).message)
            default: return .unknown(kind)
            }
        } catch {
            throw ProtocolError(
                "a \(kind) report this client cannot read (\(error)); is the daemon newer than the client?")
        }
    }

    private struct ClassField: Decodable { var `class`: String }
    private struct Overflow: Decodable { var dropped: Int }
    private struct ErrorReport: Decodable { var message: String }
}

/// The greeting: `{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":0}`.
public struct VersionReport: Hashable, Sendable, Decodable {
    public var release: String
    public var protoMajor: Int
    public var protoMinor: Int

    public init(release: String, protoMajor: Int, protoMinor: Int) {
        self.release = release
        self.protoMajor = protoMajor
        self.protoMinor = protoMinor
    }

    private enum CodingKeys: String, CodingKey {
        case release
        case protoMajor = "proto_major"
        case protoMinor = "proto_minor"
    }
}

/// The answer to `?POLL`.
public struct PollReport: Hashable, Sendable, Decodable {
    public var time: Double
    public var active: Int
    /// The combined load of all sensors; nil with ``totalReason`` when it cannot be given.
    public var total: Double?
    public var totalReason: String?
    public var weights: [WeightReport]

    public init(time: Double, active: Int, total: Double? = nil, totalReason: String? = nil, weights: [WeightReport]) {
        self.time = time
        self.active = active
        self.total = total
        self.totalReason = totalReason
        self.weights = weights
    }

    private enum CodingKeys: String, CodingKey {
        case time, active, total
        case totalReason = "total_reason"
        case weights
    }
}

/// The answer to `?DEVICES`.
public struct DevicesReport: Hashable, Sendable, Decodable {
    public var devices: [Device]
    /// Seconds since the daemon started, on its monotonic clock (protocol 1.4): a clock set late
    /// (a Pi without a real-time clock) does not change it. Nil from an older daemon.
    public var uptime: Double?
    /// The daemon's start, restarts and state directory's free space (protocol 1.6); nil from
    /// an older daemon.
    public var daemon: DaemonStatus?
    /// The services that announced themselves with `?CLIENT`, connected or remembered
    /// (protocol 1.7); nil from an older daemon.
    public var clients: [ServiceReport]?

    public init(
        devices: [Device], uptime: Double? = nil, daemon: DaemonStatus? = nil, clients: [ServiceReport]? = nil
    ) {
        self.devices = devices
        self.uptime = uptime
        self.daemon = daemon
        self.clients = clients
    }

    public struct Device: Hashable, Sendable, Decodable {
        public var sensor: String
        public var index: Int
        public var kind: String
        public var wiring: String
        /// ok, settling, not-ready, fault or starting.
        public var state: String
        public var reason: String?
        public var rate: Double
        public var nominalRate: Double
        public var published: Int
        public var discarded: [String: Int]
        public var notReady: Int
        public var faults: Int
        public var notices: [String]
        public var calibrated: Bool
        public var calibrationDate: String?
        public var calibrationQuality: String?
        public var calibrationReason: String?
        /// The calibration's fit grade (protocol 1.4): `good`, `acceptable`, `poor` or
        /// `not-checked`; nil when uncalibrated (or from an older daemon).
        public var calibrationGrade: String?
        /// The sensor's last `fault` or `not-ready` state with its reason (protocol 1.4), kept
        /// after it recovers; nil when it has had none since the daemon started.
        public var lastFault: String?
        /// When ``lastFault`` began, wall-clock ISO 8601 UTC (protocol 1.6).
        public var lastFaultTime: String?
        /// Full scale in grams (100 % force); older daemons do not send it.
        public var capacity: Double?
        /// The `profile =` the sensor's configuration names, such as `hx711-1kg-gain128`; nil when
        /// it names none (or from an older daemon).
        public var profile: String?
        /// What became of the zero and tare saved before the last stop (protocol 1.3):
        /// `pending` (waiting for the first stable load after warm-up), `restored`,
        /// `tare-dropped` or `discarded`; nil when none was saved (or from an older daemon).
        public var restore: String?
        /// The restore in words, such as "tare 12.0 g dropped: the pan is 12.0 g lighter than the tare".
        public var restoreReason: String?

        public init(
            sensor: String, index: Int, kind: String, wiring: String, state: String, reason: String? = nil,
            rate: Double, nominalRate: Double, published: Int, discarded: [String: Int], notReady: Int, faults: Int,
            notices: [String], calibrated: Bool, calibrationDate: String? = nil, calibrationQuality: String? = nil,
            calibrationReason: String? = nil, capacity: Double? = nil, profile: String? = nil,
            restore: String? = nil, restoreReason: String? = nil, calibrationGrade: String? = nil,
            lastFault: String? = nil, lastFaultTime: String? = nil
        ) {
            self.sensor = sensor
            self.index = index
            self.kind = kind
            self.wiring = wiring
            self.state = state
            self.reason = reason
            self.rate = rate
            self.nominalRate = nominalRate
            self.published = published
            self.discarded = discarded
            self.notReady = notReady
            self.faults = faults
            self.notices = notices
            self.calibrated = calibrated
            self.calibrationDate = calibrationDate
            self.calibrationQuality = calibrationQuality
            self.calibrationReason = calibrationReason
            self.capacity = capacity
            self.profile = profile
            self.restore = restore
            self.restoreReason = restoreReason
            self.calibrationGrade = calibrationGrade
            self.lastFault = lastFault
            self.lastFaultTime = lastFaultTime
        }

        private enum CodingKeys: String, CodingKey {
            case sensor, index, kind, wiring, state, reason, rate
            case nominalRate = "nominal_rate"
            case published, discarded
            case notReady = "not_ready"
            case faults, notices, calibrated
            case calibrationDate = "calibration_date"
            case calibrationQuality = "calibration_quality"
            case calibrationReason = "calibration_reason"
            case capacity
            case profile
            case restore
            case restoreReason = "restore_reason"
            case calibrationGrade = "calibration_grade"
            case lastFault = "last_fault"
            case lastFaultTime = "last_fault_time"
        }
    }
}

/// The answer to `?TARE` or `?ZERO`.
public struct CommandReply: Hashable, Sendable, Decodable {
    /// "TARE" or "ZERO".
    public var command: String
    public var sensor: String
    public var ok: Bool
    /// The tare taken, for TARE.
    public var tare: Double?
    /// The zero offset applied, for ZERO.
    public var offset: Double?
    /// The engine's refusal code when not ok, such as "notStable" or "outsideZeroRange".
    public var reason: String?
    public var message: String?

    public init(
        command: String, sensor: String, ok: Bool, tare: Double? = nil, offset: Double? = nil, reason: String? = nil,
        message: String? = nil
    ) {
        self.command = command
        self.sensor = sensor
        self.ok = ok
        self.tare = tare
        self.offset = offset
        self.reason = reason
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case command = "class"
        case sensor, ok, tare, offset, reason, message
    }
}

/// The answer to one `?CALIBRATE` step.
public struct CalibrationReply: Hashable, Sendable, Decodable {
    public var sensor: String
    public var step: String
    public var ok: Bool
    /// Points captured so far.
    public var points: Int?
    public var message: String?
    /// For fit and commit: the known weights, their residuals in grams, the quality figure.
    public var grams: [Double]?
    public var residuals: [Double]?
    public var quality: String?
    public var notice: String?
    /// For rollback: when the calibration in use again was made.
    public var calibrationDate: String?
    /// For commit: the file written; nil when saving failed (``message`` says why).
    public var saved: String?

    public init(
        sensor: String, step: String, ok: Bool, points: Int? = nil, message: String? = nil, grams: [Double]? = nil,
        residuals: [Double]? = nil, quality: String? = nil, notice: String? = nil, calibrationDate: String? = nil,
        saved: String? = nil
    ) {
        self.sensor = sensor
        self.step = step
        self.ok = ok
        self.points = points
        self.message = message
        self.grams = grams
        self.residuals = residuals
        self.quality = quality
        self.notice = notice
        self.calibrationDate = calibrationDate
        self.saved = saved
    }

    private enum CodingKeys: String, CodingKey {
        case sensor, step, ok, points, message, grams, residuals, quality, notice
        case calibrationDate = "calibration_date"
        case saved
    }
}

/// A cue event: `max-force` when the load reaches full scale, `stable-weight` when enabled.
public struct CueReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var cue: String
    public var grams: Double?

    public init(sensor: String, cue: String, grams: Double? = nil) {
        self.sensor = sensor
        self.cue = cue
        self.grams = grams
    }
}

/// A sensor's state changed: ok, settling, not-ready or fault, with the reason.
public struct StateReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var state: String
    public var reason: String?

    public init(sensor: String, state: String, reason: String? = nil) {
        self.sensor = sensor
        self.state = state
        self.reason = reason
    }
}
