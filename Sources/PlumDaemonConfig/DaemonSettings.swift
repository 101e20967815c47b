package import PlumHardware
internal import PlumSettings
internal import TOMLKit

/// Settings of `plumscaled` from `[daemon]`.
package struct DaemonSettings: Hashable, Sendable {
    /// The JSON protocol's Unix socket; nil: the default for how the daemon runs (the socket
    /// systemd passes, `$RUNTIME_DIRECTORY/plumscale.sock`, or a per-user path).
    package var socket: String?
    /// The group that may connect (the socket is mode 0660).
    package var socketGroup: String?
    /// An optional loopback TCP listener for the JSON protocol: "127.0.0.1:7450" or "[::1]:7450".
    package var tcp: ListenerAddress?
    /// An optional MT-SICS listener: a Unix socket path or a loopback "host:port".
    package var mtsics: ListenerAddress?
    /// The sensor the MT-SICS listener weighs with; nil: the first sensor. Checked against the
    /// configured sensors by ``PlumConfiguration/parse(_:file:)``.
    package var mtsicsSensor: String?
    /// The group whose members may zero, tare and calibrate (besides root and the daemon's
    /// user); nil: nobody else.
    package var adminGroup: String?
    /// The most clients served at once; one more gets an error line and is closed.
    package var maxClients: Int = 256
    /// How many of the `maxClients` slots, the last ones, only clients that may change the
    /// scale (root, the daemon's user, `adminGroup`) may take; at most `maxClients - 1` apply.
    package var reservedClients: Int = 8
    /// Seconds after which a client that may not change the scale, is not watching and sends no
    /// request is closed; 0: never.
    package var idleTimeoutSeconds: Int = 10
    /// Messages queued per client before its oldest are dropped.
    package var clientQueue: Int = 512
    /// Where calibrations are kept; nil: `$STATE_DIRECTORY` or /var/lib/plumscale.
    package var stateDirectory: String?

    package init() {}

    init(_ reader: TOMLReader) throws(ConfigurationError) {
        var reader = reader
        socket = try reader.string("socket")
        if let socket, !socket.hasPrefix("/") {
            throw reader.error(
                "socket", "socket = \"\(socket)\" must be an absolute path, such as \"/run/plumscale/plumscale.sock\"")
        }
        socketGroup = try reader.string("socket_group")
        if let tcp = try reader.string("tcp") {
            self.tcp = try Self.loopback(tcp, key: "tcp", reader: reader)
        }
        if let mtsics = try reader.string("mtsics") {
            self.mtsics =
                mtsics.hasPrefix("/")
                ? ListenerAddress(.unixSocket(path: mtsics), position: reader.position(of: "mtsics"))
                : try Self.loopback(mtsics, key: "mtsics", reader: reader)
        }
        mtsicsSensor = try reader.string("mtsics_sensor")
        adminGroup = try reader.string("admin_group")
        if let adminGroup { try Self.requireGroupName(adminGroup, key: "admin_group", reader: reader) }
        maxClients = try reader.int("max_clients", in: 1...65_536, unit: "clients") ?? maxClients
        reservedClients = try reader.int("reserved_clients", in: 0...65_535, unit: "clients") ?? reservedClients
        idleTimeoutSeconds = try reader.int("idle_timeout_seconds", in: 0...86_400, unit: "s") ?? idleTimeoutSeconds
        clientQueue = try reader.int("client_queue", in: 8...1_000_000, unit: "messages") ?? clientQueue
        stateDirectory = try reader.string("state_directory")
        try reader.rejectUnknownKeys()
    }

    /// A group name as `groupadd` accepts it: a letter or `_` first, then letters, digits, `_`,
    /// `-` or `.`, at most 32 characters. A number is refused: a gid would silently change
    /// meaning if the group were renumbered.
    static func requireGroupName(_ name: String, key: String, reader: TOMLReader) throws(ConfigurationError) {
        let valid =
            !name.isEmpty && name.utf8.count <= 32
            && name.first.map { ($0.isASCII && $0.isLetter) || $0 == "_" } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
        guard valid else {
            throw reader.error(
                key,
                "\(key) = \"\(name)\" is not a group name; use the name of an existing group, such as "
                    + "\"plumscale-admin\" (letters, digits, _, - or ., starting with a letter)"
            )
        }
    }

    /// A TCP listener must stay on this machine: readings and commands are not for the network.
    static func loopback(_ endpoint: String, key: String, reader: TOMLReader) throws(ConfigurationError)
        -> ListenerAddress
    {
        guard let colon = endpoint.lastIndex(of: ":"), let port = Int(endpoint[endpoint.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            throw reader.error(
                key, "\(key) = \"\(endpoint)\" is not host:port; use \"127.0.0.1:7450\" or \"[::1]:7450\"")
        }
        let host = endpoint[..<colon]
        guard host == "127.0.0.1" || host == "[::1]" || host == "localhost" else {
            throw reader.error(
                key, "\(key) = \"\(endpoint)\" is not a loopback address; PlumScale listens on 127.0.0.1 or [::1] only")
        }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : String(host)
        return ListenerAddress(.loopback(host: bare, port: port), position: reader.position(of: key))
    }
}

/// The buzzer or haptic driver wired to a GPIO line, from `[cue]`.
package struct CueOutputSettings: Hashable, Sendable {
    package var chip: GPIOChipSpec
    package var line: GPIOLineSpec
    /// The line is driven low to sound (a PNP transistor, say).
    package var activeLow: Bool
    /// How long one cue sounds.
    package var pulseMilliseconds: Int
    /// Also a short cue when a new stable weight is reached.
    package var onStable: Bool

    package init(
        chip: GPIOChipSpec, line: GPIOLineSpec, activeLow: Bool = false, pulseMilliseconds: Int = 150,
        onStable: Bool = false
    ) {
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
        self.pulseMilliseconds = pulseMilliseconds
        self.onStable = onStable
    }

    init(_ reader: TOMLReader) throws(ConfigurationError) {
        var reader = reader
        let keys = try GPIOLineKeys(&reader, what: "the buzzer", example: 18)
        chip = keys.chip
        line = keys.line
        activeLow = try reader.bool("active_low") ?? false
        pulseMilliseconds = try reader.int("pulse_ms", in: 5...5000, unit: "ms") ?? 150
        onStable = try reader.bool("on_stable") ?? false
        try reader.rejectUnknownKeys()
    }
}
