import FoundationEssentials

/// One client request in the PlumScale JSON protocol (gpsd-style).
///
/// A request is one line: `?NAME;` or `?NAME={json};`. The trailing `;` is optional, as in
/// gpsd. Names are case-sensitive and upper-case.
public enum Request: Hashable, Sendable {
    /// `?WATCH={"enable":true,"sensors":["left"],"raw":false,"binary":false};`
    case watch(WatchOptions)
    /// `?POLL;`: the latest reading of every sensor.
    case poll
    /// `?DEVICES;`: the sensors, their state and statistics.
    case devices
    /// `?VERSION;`: the version report again.
    case version
    /// `?TARE={"sensor":"left"};`
    case tare(sensor: String)
    /// `?ZERO={"sensor":"left"};`
    case zero(sensor: String)
    /// `?CALIBRATE={"sensor":"left","step":"point","grams":100};`
    case calibrate(CalibrationRequest)
    /// `?TARE={"sensor":"left","grams":212};`: a known tare, as MT-SICS `TA` (protocol 1.5).
    case presetTare(sensor: String, grams: Double)
    /// `?TARE={"sensor":"left","name":"bowl"};`: a named tare as the preset tare (protocol 1.5).
    case useTare(sensor: String, name: String)
    /// `?TARES;` lists the named tares; with an argument saves or deletes one (protocol 1.5).
    case tares(TareLibraryRequest)
    /// `?ALERT={"name":"fruit-low","threshold":150};`: a rule's settings at runtime (protocol 1.5).
    case setAlert(AlertChange)
    /// `?SESSION={"action":"start","name":"crate-12"};`: weighing sessions (``SessionRequest``).
    case session(SessionRequest)
    /// `?COUNT={"sensor":"left","pieces":10};`: piece counting (``CountRequest``).
    case count(CountRequest)
    /// `?CHECK={"sensor":"left","target":100,"minus":2,"plus":5};`: check-weighing (``CheckRequest``).
    case check(CheckRequest)
    /// `?CLIENT={"name":"plumscale-mqtt",…};`: a service announces itself (protocol 1.7,
    /// ``ClientAnnouncement``).
    case client(ClientAnnouncement)

    /// Whether the request changes the scale's state (zero, tare, calibration), and so needs
    /// the peer to be authorized; reading requests are open to anyone who can connect.
    public var changesState: Bool {
        switch self {
        case .tare, .zero, .calibrate: true
        case .watch, .poll, .devices, .version: false
        case .presetTare, .useTare, .setAlert: true
        case .tares(let library): library.changesState
        // Starting and stopping change what the daemon records; looking does not.
        case .session(let request): request.action == .start || request.action == .stop
        case .count, .check: true
        // It changes only what `status` lists, and a client can describe only its own connection.
        case .client: false
        }
    }

    /// The request's name as a client writes it, such as `?TARE`, for messages.
    public var name: String {
        switch self {
        case .watch: "?WATCH"
        case .poll: "?POLL"
        case .devices: "?DEVICES"
        case .version: "?VERSION"
        case .tare: "?TARE"
        case .zero: "?ZERO"
        case .calibrate: "?CALIBRATE"
        case .presetTare, .useTare: "?TARE"
        case .tares: "?TARES"
        case .setAlert: "?ALERT"
        case .session: "?SESSION"
        case .count: "?COUNT"
        case .check: "?CHECK"
        case .client: "?CLIENT"
        }
    }

    /// The longest request line accepted, in bytes; longer lines are refused, not buffered.
    public static let maximumLineLength = 4096

    /// Parses one request line (without its newline).
    /// - Throws: ``ProtocolError`` that says what was wrong and what a valid request looks like.
    public static func parse(_ line: Substring) throws(ProtocolError) -> Request {
        var text = line
        while let last = text.last, last.isNewline || last == " " { text.removeLast() }
        guard text.utf8.count <= maximumLineLength else {
            throw ProtocolError("request longer than \(maximumLineLength) bytes")
        }
        guard text.first == "?" else {
            throw ProtocolError("a request starts with '?', such as ?POLL; or ?WATCH={\"enable\":true};")
        }
        text.removeFirst()
        if text.last == ";" { text.removeLast() }
        let name: Substring
        let body: Substring?
        if let equals = text.firstIndex(of: "=") {
            name = text[..<equals]
            body = text[text.index(after: equals)...]
        } else {
            name = text
            body = nil
        }
        switch name {
        case "WATCH":
            return .watch(try decode(WatchOptions.self, body ?? "{}", request: name))
        case "POLL":
            return .poll
        case "DEVICES":
            return .devices
        case "VERSION":
            return .version
        case "TARE":
            return try decode(TareArgument.self, body, request: name).request()
        case "ZERO":
            return .zero(sensor: try decode(SensorArgument.self, body, request: name).sensor)
        case "CALIBRATE":
            let request = try decode(CalibrationRequest.self, body, request: name)
            try request.validate()
            return .calibrate(request)
        case "TARES":
            return .tares(try decode(TareLibraryRequest.self, body ?? "{}", request: name))
        case "ALERT":
            let change = try decode(AlertChange.self, body, request: name)
            try change.validate()
            return .setAlert(change)
        case "SESSION":
            let request = try decode(SessionRequest.self, body, request: name)
            try request.validate()
            return .session(request)
        case "COUNT":
            let request = try decode(CountRequest.self, body, request: name)
            try request.validate()
            return .count(request)
        case "CHECK":
            let request = try decode(CheckRequest.self, body, request: name)
            try request.validate()
            return .check(request)
        case "CLIENT":
            let announcement = try decode(ClientAnnouncement.self, body, request: name)
            try announcement.validate()
            return .client(announcement)
        default:
            throw ProtocolError(
                "unknown request ?\(name); known: ?WATCH, ?POLL, ?DEVICES, ?VERSION, ?TARE, ?ZERO, ?CALIBRATE, "
                    + "?TARES, ?ALERT, ?SESSION, ?COUNT, ?CHECK, ?CLIENT")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: Substring?, request: Substring)
        throws(ProtocolError) -> T
    {
        guard let body, !body.isEmpty else {
            throw ProtocolError("?\(request) needs a JSON argument, such as ?\(request)={\"sensor\":\"left\"};")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.utf8))
        } catch let DecodingError.keyNotFound(key, _) {
            throw ProtocolError("?\(request): missing \"\(key.stringValue)\"")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw ProtocolError("?\(request): \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ProtocolError("?\(request): \"\(path)\" has the wrong type")
        } catch {
            throw ProtocolError("?\(request): the argument is not valid JSON")
        }
    }
}

/// The argument of `?WATCH`.
public struct WatchOptions: Hashable, Sendable, Decodable {
    /// Start (true) or stop (false) streaming.
    public var enable: Bool
    /// Which sensors; empty means all.
    public var sensors: [String]
    /// Also stream `RAW` reports with every raw sample.
    public var raw: Bool
    /// Stream fixed 10-byte binary frames instead of JSON `WEIGHT` reports.
    public var binary: Bool
    /// Protocol 1.9: a sensor's `WEIGHT` only when what a display shows of it changes (the
    /// shown weight, a mark, a state, a count or verdict), and at least once a second otherwise:
    /// for a client that shows the weight rather than analyses every reading.
    public var changes: Bool

    public init(
        enable: Bool = true, sensors: [String] = [], raw: Bool = false, binary: Bool = false, changes: Bool = false
    ) {
        self.enable = enable
        self.sensors = sensors
        self.raw = raw
        self.binary = binary
        self.changes = changes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enable = try container.decodeIfPresent(Bool.self, forKey: .enable) ?? true
        sensors = try container.decodeIfPresent([String].self, forKey: .sensors) ?? []
        raw = try container.decodeIfPresent(Bool.self, forKey: .raw) ?? false
        binary = try container.decodeIfPresent(Bool.self, forKey: .binary) ?? false
        changes = try container.decodeIfPresent(Bool.self, forKey: .changes) ?? false
    }

    private enum CodingKeys: String, CodingKey { case enable, sensors, raw, binary, changes }
}

/// `{"sensor":"left"}`.
struct SensorArgument: Decodable {
    var sensor: String
}

/// The argument of `?CALIBRATE`: one step of the known-weight procedure.
public struct CalibrationRequest: Hashable, Sendable, Decodable {
    public enum Step: String, Hashable, Sendable, Decodable, CaseIterable {
        /// `fit` shows the fit of the points so far, with residuals, without using or saving it;
        /// `rollback` puts the previous saved calibration back into use.
        case begin, zero, point, fit, commit, cancel, rollback
    }

    public var sensor: String
    public var step: Step
    /// The known weight in grams, for `point`.
    public var grams: Double?

    public init(sensor: String, step: Step, grams: Double? = nil) {
        self.sensor = sensor
        self.step = step
        self.grams = grams
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sensor = try container.decode(String.self, forKey: .sensor)
        let stepName = try container.decode(String.self, forKey: .step)
        guard let step = Step(rawValue: stepName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .step, in: container,
                debugDescription: "step must be begin, zero, point, fit, commit, cancel or rollback")
        }
        self.step = step
        grams = try container.decodeIfPresent(Double.self, forKey: .grams)
    }

    private enum CodingKeys: String, CodingKey { case sensor, step, grams }

    func validate() throws(ProtocolError) {
        switch step {
        case .point:
            guard let grams, grams.isFinite, grams > 0 else {
                throw ProtocolError(
                    "?CALIBRATE: step \"point\" needs \"grams\", the known weight in grams (more than 0)")
            }
        case .begin, .zero, .fit, .commit, .cancel, .rollback:
            if grams != nil {
                throw ProtocolError("?CALIBRATE: \"grams\" goes with step \"point\" only")
            }
        }
    }
}
