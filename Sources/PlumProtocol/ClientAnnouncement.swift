import FoundationEssentials

/// The argument of `?CLIENT` (protocol 1.7): a long-running service (the MQTT bridge, the web
/// service) tells the daemon who it is, so `plumscale status` can list it beside the daemon.
///
/// The daemon keeps it for as long as the connection that sent it stays open, so a service
/// sends it on the connection it keeps (its WATCH) after every connect, and again whenever its
/// counters or ``detail`` change. Every field is bounded (``validate()``): a client cannot make
/// the daemon keep more than a few hundred bytes per connection.
public struct ClientAnnouncement: Hashable, Sendable, Decodable {
    /// A value of ``detail``: a short string, a number or a flag, nothing nested.
    public enum DetailValue: Hashable, Sendable, Decodable {
        case text(String)
        case number(Double)
        case flag(Bool)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a detail is a string, a number or true/false")
            }
        }
    }

    /// The service's name, such as `plumscale-mqtt`: letters, digits, `.`, `_` and `-`.
    public var name: String
    /// The service's release, such as `0.1.0`.
    public var version: String?
    /// When the service started, wall-clock, ISO 8601 UTC.
    public var started: String?
    /// Seconds since the service started, on its monotonic clock, when it sent this; the daemon
    /// counts on from it with its own monotonic clock, so a clock step changes neither.
    public var uptime: Double?
    /// How often the service has connected to the daemon again since it started (a restarted
    /// daemon cannot count these itself).
    public var reconnects: Int?
    /// A few facts of the service's own, such as `"broker":"connected"`.
    public var detail: [String: DetailValue]

    /// The longest name, in bytes; ``ClientAnnouncement/maximumText`` for the other strings.
    public static let maximumName = 40
    /// The longest version, start time or detail string, in bytes of UTF-8.
    public static let maximumText = 120
    /// The most entries of ``detail``.
    public static let maximumDetails = 8
    /// The longest key of ``detail``, in bytes of UTF-8.
    public static let maximumDetailKey = 32

    public init(
        name: String, version: String? = nil, started: String? = nil, uptime: Double? = nil, reconnects: Int? = nil,
        detail: [String: DetailValue] = [:]
    ) {
        self.name = name
        self.version = version
        self.started = started
        self.uptime = uptime
        self.reconnects = reconnects
        self.detail = detail
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        started = try container.decodeIfPresent(String.self, forKey: .started)
        uptime = try container.decodeIfPresent(Double.self, forKey: .uptime)
        reconnects = try container.decodeIfPresent(Int.self, forKey: .reconnects)
        detail = try container.decodeIfPresent([String: DetailValue].self, forKey: .detail) ?? [:]
    }

    private enum CodingKeys: String, CodingKey { case name, version, started, uptime, reconnects, detail }

    /// Refuses what the daemon will not keep, naming the field and its bound.
    /// - Throws: ``ProtocolError`` such as `?CLIENT: "name" must be 1 to 40 characters …`.
    public func validate() throws(ProtocolError) {
        let allowed = name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
                || "._-".unicodeScalars
                    .contains($0)
        }
        guard (1...Self.maximumName).contains(name.utf8.count), allowed else {
            throw ProtocolError(
                "?CLIENT: \"name\" must be 1 to \(Self.maximumName) characters of letters, digits, '.', '_' and '-', "
                    + "such as \"plumscale-mqtt\"")
        }
        // Printed on others' terminals (plumscale status): no escape sequence, no bidi override.
        for (field, text) in [("version", version), ("started", started)] {
            if let text, let problem = WireText.problem(in: text, field: field, limit: Self.maximumText) {
                throw ProtocolError("?CLIENT: \(problem)")
            }
        }
        if let uptime, !(uptime.isFinite && uptime >= 0) {
            throw ProtocolError("?CLIENT: \"uptime\" must be seconds since the service started, 0 or more")
        }
        if let reconnects, reconnects < 0 {
            throw ProtocolError("?CLIENT: \"reconnects\" must be 0 or more")
        }
        guard detail.count <= Self.maximumDetails else {
            throw ProtocolError(
                "?CLIENT: \"detail\" has \(detail.count) entries; at most \(Self.maximumDetails) are kept")
        }
        for (key, value) in detail {
            guard !key.isEmpty, WireText.problem(in: key, field: "", limit: Self.maximumDetailKey) == nil else {
                throw ProtocolError(
                    "?CLIENT: a \"detail\" key must be 1 to \(Self.maximumDetailKey) bytes with no control "
                        + "character or bidi override, such as \"broker\"")
            }
            if case .text(let text) = value,
                let problem = WireText.problem(in: text, field: "detail.\(key)", limit: Self.maximumText)
            {
                throw ProtocolError("?CLIENT: \(problem)")
            }
            if case .number(let number) = value, !number.isFinite {
                throw ProtocolError("?CLIENT: \"detail.\(key)\" is not a finite number")
            }
        }
    }

    /// The argument as JSON, in a fixed key order (``detail`` sorted by key).
    public var json: JSONWriter {
        var json = JSONWriter()
        json.add("name", name)
        if let version { json.add("version", version) }
        if let started { json.add("started", started) }
        if let uptime { json.add("uptime", uptime) }
        if let reconnects { json.add("reconnects", reconnects) }
        if !detail.isEmpty { json.add("detail", object: Self.object(detail)) }
        return json
    }

    /// ``detail`` as a JSON object, sorted by key so the same facts always read the same.
    public static func object(_ detail: [String: DetailValue]) -> JSONWriter {
        var json = JSONWriter()
        for (key, value) in detail.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .text(let text): json.add(JSONWriter.Key(key), text)
            case .number(let number): json.add(JSONWriter.Key(key), number)
            case .flag(let flag): json.add(JSONWriter.Key(key), flag)
            }
        }
        return json
    }
}

/// The daemon's answer to `?CLIENT`: `{"class":"CLIENT","name":"plumscale-mqtt","connections":3}`.
public struct ClientReply: Hashable, Sendable, Decodable {
    /// The name the daemon now lists this connection under.
    public var name: String
    /// Connections this daemon has seen announce under the name, this one included.
    public var connections: Int

    public init(name: String, connections: Int) {
        self.name = name
        self.connections = connections
    }
}
