/// One service that announced itself with `?CLIENT`, as the `clients` array of `DEVICES` lists it
/// (protocol 1.7): connected now, or remembered since its connection closed.
///
/// The daemon keeps announcements in memory only: after a daemon restart the list starts empty
/// and fills as the services reconnect (each says how often it has reconnected, in
/// ``reconnects``).
public struct ServiceReport: Hashable, Sendable, Decodable {
    public typealias DetailValue = ClientAnnouncement.DetailValue

    /// The name it announced, such as `plumscale-mqtt`.
    public var name: String
    /// Whether a connection that announced this name is open now.
    public var connected: Bool
    public var version: String?
    /// When the service started, wall-clock, as it said.
    public var started: String?
    /// Seconds the service has run, on monotonic clocks: what it announced plus the time since,
    /// counted by the daemon; nil when it is not connected or did not say.
    public var uptime: Double?
    /// How often the service says it has reconnected to a daemon since it started.
    public var reconnects: Int?
    /// Connections this daemon has seen announce under the name (this run of the daemon only).
    public var connections: Int
    /// When the last connection under this name closed, wall-clock; nil while one is open.
    public var lastSeen: String?
    /// The service's own facts from its last announcement.
    public var detail: [String: DetailValue]
    /// The user id of the process that announced it, by the kernel's word on the Unix socket
    /// (`SO_PEERCRED`); nil over TCP. A name is only what a client says; the uid is who it is,
    /// so `plumscale status` shows it when the two disagree.
    public var uid: UInt32?

    public init(
        name: String, connected: Bool, version: String? = nil, started: String? = nil, uptime: Double? = nil,
        reconnects: Int? = nil, connections: Int, lastSeen: String? = nil, detail: [String: DetailValue] = [:],
        uid: UInt32? = nil
    ) {
        self.name = name
        self.connected = connected
        self.version = version
        self.started = started
        self.uptime = uptime
        self.reconnects = reconnects
        self.connections = connections
        self.lastSeen = lastSeen
        self.detail = detail
        self.uid = uid
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        connected = try container.decode(Bool.self, forKey: .connected)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        started = try container.decodeIfPresent(String.self, forKey: .started)
        uptime = try container.decodeIfPresent(Double.self, forKey: .uptime)
        reconnects = try container.decodeIfPresent(Int.self, forKey: .reconnects)
        connections = try container.decode(Int.self, forKey: .connections)
        lastSeen = try container.decodeIfPresent(String.self, forKey: .lastSeen)
        detail = try container.decodeIfPresent([String: DetailValue].self, forKey: .detail) ?? [:]
        uid = try container.decodeIfPresent(UInt32.self, forKey: .uid)
    }

    private enum CodingKeys: String, CodingKey {
        case name, connected, version, started, uptime, reconnects, connections, detail, uid
        case lastSeen = "last_seen"
    }

    /// One entry of `clients`, in a fixed key order.
    public var object: JSONWriter {
        var json = JSONWriter()
        json.add("name", name)
        json.add("connected", connected)
        if let version { json.add("version", version) }
        if let started { json.add("started", started) }
        // To the millisecond: a service's uptime needs no more, and the line stays short.
        if let uptime { json.add("uptime", uptime, decimals: 3) }
        if let reconnects { json.add("reconnects", reconnects) }
        json.add("connections", connections)
        if let lastSeen { json.add("last_seen", lastSeen) }
        if !detail.isEmpty { json.add("detail", object: ClientAnnouncement.object(detail)) }
        if let uid { json.add("uid", Int(uid)) }
        return json
    }
}
