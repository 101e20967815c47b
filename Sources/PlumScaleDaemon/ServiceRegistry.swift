package import PlumProtocol
package import PlumSystem
internal import Synchronization

/// The services connected to the daemon (`?CLIENT`, protocol 1.7), for the `clients` of
/// `?DEVICES`: what each connection announced, and per name when it was last seen and how often
/// it connected, so `plumscale status` can say "connected, up 3 h 12 min" or "not connected
/// since 10:42".
///
/// Bounded, as everything a client can make the daemon keep: at most
/// ``maximumConnected`` announcing connections (one more is refused, naming the bound) and
/// ``maximumRemembered`` names (the one seen longest ago without a connection is forgotten
/// first). Kept in memory only: a restarted daemon learns them again as the services reconnect.
///
/// A `Mutex`, not an actor: a closing connection tells it from its event loop, which must not
/// wait, and an announcement decides under the same lock whether its connection is still open.
package final class ServiceRegistry: Sendable {
    /// Connections that may announce themselves at once.
    package let maximumConnected: Int
    /// Names remembered, connected or not.
    package let maximumRemembered: Int

    private struct Announced {
        var announcement: ClientAnnouncement
        /// Who sent it, by the kernel's word (`SO_PEERCRED`); nil over TCP.
        var uid: UInt32?
        /// When the daemon received it, on its monotonic clock: the service's uptime counts on from it.
        var received: MonotonicInstant
    }

    private struct Memory {
        var connections = 0
        var lastSeen: String?
        var lastSeenAt = MonotonicInstant(nanoseconds: 0)
        var last: ClientAnnouncement
        var lastUID: UInt32?
    }

    private struct State {
        var connected: [Int: Announced] = [:]
        var remembered: [String: Memory] = [:]
    }

    private let state = Mutex(State())

    package init(maximumConnected: Int = 16, maximumRemembered: Int = 32) {
        self.maximumConnected = max(1, maximumConnected)
        self.maximumRemembered = max(self.maximumConnected, maximumRemembered)
    }

    /// Keeps `announcement` for connection `client` and answers it.
    ///
    /// A repeat on the same connection updates it; a connection is one service, so a repeat
    /// under another name is refused. Call it from the task answering the request: a task
    /// cancelled because its connection closed keeps nothing.
    /// - Returns: `CLIENT` with the connections seen under the name, or an `ERROR` saying why not.
    package func announce(
        _ announcement: ClientAnnouncement, client: Int, uid: UInt32? = nil, now: MonotonicInstant
    ) -> Report {
        state.withLock { state in
            // Checked under the lock a closing connection takes too: it was cancelled before.
            if Task.isCancelled { return .error(message: "?CLIENT: the connection closed") }
            if let known = state.connected[client] {
                guard known.announcement.name == announcement.name else {
                    return .error(
                        message: "?CLIENT: this connection announced itself as \"\(known.announcement.name)\"; "
                            + "\"name\" cannot change on a connection: connect again to be \"\(announcement.name)\"")
                }
                state.connected[client] = Announced(announcement: announcement, uid: uid, received: now)
                state.remembered[announcement.name]?.last = announcement
                state.remembered[announcement.name]?.lastUID = uid
                let connections = state.remembered[announcement.name]?.connections ?? 1
                return .client(ClientReply(name: announcement.name, connections: connections))
            }
            guard state.connected.count < maximumConnected else {
                return .error(
                    message: "?CLIENT: \(maximumConnected) connections have announced themselves already, the most "
                        + "the daemon lists; \"\(announcement.name)\" is not listed (close a service's other "
                        + "connections, or stop one of the services)")
            }
            state.connected[client] = Announced(announcement: announcement, uid: uid, received: now)
            var memory = state.remembered[announcement.name] ?? Memory(last: announcement)
            memory.connections += 1
            memory.last = announcement
            memory.lastUID = uid
            memory.lastSeen = nil
            state.remembered[announcement.name] = memory
            Self.forgetOldest(&state, keeping: maximumRemembered)
            return .client(ClientReply(name: announcement.name, connections: memory.connections))
        }
    }

    /// Connection `client` closed: its announcement goes, its name is remembered as last seen now.
    package func closed(client: Int, now: MonotonicInstant, wallClock: String) {
        state.withLock { state in
            guard let gone = state.connected.removeValue(forKey: client) else { return }
            let name = gone.announcement.name
            // Another connection under the same name keeps it connected.
            guard !state.connected.values.contains(where: { $0.announcement.name == name }) else { return }
            state.remembered[name]?.lastSeen = wallClock
            state.remembered[name]?.lastSeenAt = now
        }
    }

    /// The `clients` of `DEVICES`: every open announcing connection, then every remembered name
    /// without one, each group by name.
    package func services(now: MonotonicInstant) -> [ServiceReport] {
        state.withLock { state in
            let open = state.connected.sorted {
                ($0.value.announcement.name, $0.key) < ($1.value.announcement.name, $1.key)
            }
            var reports = open.map { _, announced in
                let announcement = announced.announcement
                let since = Double(now.nanoseconds(since: announced.received)) / 1e9
                return ServiceReport(
                    name: announcement.name, connected: true, version: announcement.version,
                    started: announcement.started, uptime: announcement.uptime.map { $0 + since },
                    reconnects: announcement.reconnects,
                    connections: state.remembered[announcement.name]?.connections ?? 1, detail: announcement.detail,
                    uid: announced.uid)
            }
            let names = Set(open.map(\.value.announcement.name))
            for (name, memory) in state.remembered.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
                reports.append(
                    ServiceReport(
                        name: name, connected: false, version: memory.last.version, started: memory.last.started,
                        reconnects: memory.last.reconnects, connections: memory.connections,
                        lastSeen: memory.lastSeen, detail: memory.last.detail, uid: memory.lastUID))
            }
            return reports
        }
    }

    /// Forgets names beyond `limit`: those without a connection, seen longest ago first.
    private static func forgetOldest(_ state: inout State, keeping limit: Int) {
        guard state.remembered.count > limit else { return }
        let live = Set(state.connected.values.map(\.announcement.name))
        let idle = state.remembered.filter { !live.contains($0.key) }
            .sorted { $0.value.lastSeenAt < $1.value.lastSeenAt }
        for (name, _) in idle.prefix(state.remembered.count - limit) { state.remembered.removeValue(forKey: name) }
    }
}
