import PlumProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Who a long-running service is, for the daemon's list of services (`?CLIENT`, protocol 1.7):
/// give one to a ``DaemonLink`` and the link announces the service on every connect, with its
/// uptime and how often it has reconnected, so `plumscale status` lists it.
///
/// ```swift
/// let announcer = ServiceAnnouncer(name: "plumscale-mqtt", version: "0.1.0")
/// let link = DaemonLink(socketPath: nil, announcing: announcer)
/// …
/// link.announce(detail: ["broker": .text("connected")])
/// ```
public final class ServiceAnnouncer: Sendable {
    public typealias DetailValue = ClientAnnouncement.DetailValue

    /// The name the daemon lists, such as `plumscale-mqtt`.
    public let name: String
    public let version: String?
    /// When the announcer was made (the service's start), wall-clock, ISO 8601 UTC.
    public let started: String
    /// The same moment on the monotonic clock: the uptime a clock step cannot change.
    private let startedAt: ContinuousClock.Instant
    private let detail: Mutex<[String: DetailValue]>

    /// - Parameters:
    ///   - name: letters, digits, `.`, `_` and `-`, at most ``ClientAnnouncement/maximumName``
    ///     characters; the daemon refuses other names.
    ///   - version: the service's release.
    public init(name: String, version: String? = nil, detail: [String: DetailValue] = [:]) {
        self.name = name
        self.version = version
        self.started = Self.utcNow()
        self.startedAt = ContinuousClock.now
        self.detail = Mutex(detail)
    }

    /// The facts announced with the name now.
    public var currentDetail: [String: DetailValue] { detail.withLock { $0 } }

    /// Replaces the facts; a ``DaemonLink`` sends them with ``DaemonLink/announce(detail:)``.
    func setDetail(_ facts: [String: DetailValue]) { detail.withLock { $0 = facts } }

    /// The `?CLIENT` argument now: the uptime since ``started``, and `reconnects`.
    public func announcement(reconnects: Int) -> ClientAnnouncement {
        let elapsed = ContinuousClock.now - startedAt
        let uptime = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ClientAnnouncement(
            name: name, version: version, started: started, uptime: max(0, uptime), reconnects: reconnects,
            detail: currentDetail)
    }

    private static func utcNow() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
