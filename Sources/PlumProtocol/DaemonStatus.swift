/// The daemon's own health, the `daemon` object of `DEVICES` (protocol 1.6): when it started,
/// how often it has started on its state directory and how the last run ended, and the state
/// directory's free space.
///
/// Times are wall-clock (ISO 8601 UTC), for people; the uptime beside it in ``DevicesReport``
/// is on the monotonic clock, so a clock set late does not make it jump.
public struct DaemonStatus: Hashable, Sendable, Decodable {
    /// When this daemon started, wall-clock, such as `2026-11-27T06:30:00Z`.
    public var started: String?
    /// Starts on this state directory, this one included; nil when they could not be counted
    /// (an unwritable state directory).
    public var starts: Int?
    /// Runs that ended without a graceful stop: SIGKILL, a crash, a power cut.
    public var uncleanStops: Int?
    /// How the run before this one ended: `clean` or `unclean`; nil on a first start.
    public var lastStop: String?
    public var stateDirectory: String?
    /// Bytes an unprivileged process can still write in the state directory's file system.
    public var stateFreeBytes: Int64?
    public var stateTotalBytes: Int64?
    /// Why the free space is unknown, when it is.
    public var stateError: String?
    /// Set while saves to the state directory fail (a full disk): what could not be saved
    /// first, since when, how many saves failed, why, and what to do (protocol 1.7).
    public var stateSaveError: String?

    public init(
        started: String? = nil, starts: Int? = nil, uncleanStops: Int? = nil, lastStop: String? = nil,
        stateDirectory: String? = nil, stateFreeBytes: Int64? = nil, stateTotalBytes: Int64? = nil,
        stateError: String? = nil, stateSaveError: String? = nil
    ) {
        self.started = started
        self.starts = starts
        self.uncleanStops = uncleanStops
        self.lastStop = lastStop
        self.stateDirectory = stateDirectory
        self.stateFreeBytes = stateFreeBytes
        self.stateTotalBytes = stateTotalBytes
        self.stateError = stateError
        self.stateSaveError = stateSaveError
    }

    /// Restarts seen: every start but the first.
    public var restarts: Int? { starts.map { max(0, $0 - 1) } }

    /// Below this many free bytes a state directory is low, whatever its size: a day of a busy
    /// scale's history (PERFORMANCE.md, section 9) and every calibration fit many times over.
    public static let lowSpaceBytes: Int64 = 50_000_000
    /// Below this share free a state directory is low, whatever its size: a big card filling up
    /// is noticed before it is full.
    public static let lowSpaceFraction = 0.05

    /// True when free space is below 50 MB or below 5 % of the file system: the figure
    /// `plumscale status` and the web page warn at.
    public static func isLow(free: Int64, total: Int64) -> Bool {
        free < lowSpaceBytes || (total > 0 && Double(free) < Double(total) * lowSpaceFraction)
    }

    /// ``isLow(free:total:)`` of the state directory; false when its space is unknown.
    public var isStateSpaceLow: Bool {
        guard let free = stateFreeBytes, let total = stateTotalBytes else { return false }
        return Self.isLow(free: free, total: total)
    }

    /// The `daemon` object of `DEVICES`, in a fixed key order.
    public var object: JSONWriter {
        var json = JSONWriter()
        if let started { json.add("started", started) }
        if let starts { json.add("starts", starts) }
        if let uncleanStops { json.add("unclean_stops", uncleanStops) }
        if let lastStop { json.add("last_stop", lastStop) }
        if let stateDirectory { json.add("state_directory", stateDirectory) }
        if let stateFreeBytes { json.add("state_free_bytes", stateFreeBytes) }
        if let stateTotalBytes { json.add("state_total_bytes", stateTotalBytes) }
        if let stateError { json.add("state_error", stateError) }
        if let stateSaveError { json.add("state_save_error", stateSaveError) }
        return json
    }

    private enum CodingKeys: String, CodingKey {
        case started, starts
        case uncleanStops = "unclean_stops"
        case lastStop = "last_stop"
        case stateDirectory = "state_directory"
        case stateFreeBytes = "state_free_bytes"
        case stateTotalBytes = "state_total_bytes"
        case stateError = "state_error"
        case stateSaveError = "state_save_error"
    }
}
