internal import NIOCore
internal import PlumProtocol
internal import Synchronization

/// Fans reports out to every connected client through per-client bounded queues.
///
/// The samplers and the engine call ``publish(_:)`` from any thread; it never blocks on a
/// client and never waits for I/O: it appends the same encoded bytes to each subscribed
/// client's queue and lists an idle client with its event loop, which a report wakes once for
/// all of its listed clients. A client that does not read loses its oldest reports (and is
/// told how many), and is disconnected when its queue stays full for
/// ``Configuration/stallTimeout``.
package final class ClientHub: Sendable {
    /// Limits of the fan-out.
    package struct Configuration: Sendable {
        /// Clients served at once; one more is sent an `ERROR` and closed.
        package var maximumClients: Int
        /// How many of the ``maximumClients`` slots, the last ones, only peers that may change
        /// the scale get (see ``CommandAuthorization/mayChangeState(_:)``), so that connections
        /// from one local user cannot lock out the web service, the bridge and the admins. At
        /// most `maximumClients - 1` are kept, so anyone may always connect to an empty daemon.
        package var reservedClients: Int
        /// A client that may not change the scale, is not watching and has sent no request for
        /// this long is closed with an `ERROR` line; nil or zero: never.
        package var idleTimeout: Duration?
        /// Reports queued per client before the oldest is dropped.
        package var queueCapacity: Int
        /// How long a client's queue may stay full, with nothing taken, before it is
        /// disconnected.
        package var stallTimeout: Duration
        /// The release reported in the `VERSION` line.
        package var release: String
        /// Bytes NIO may hold for a client's socket beyond the kernel's buffer before the
        /// channel reports itself unwritable (the high water mark).
        package var writeBufferLimit: Int

        package init(
            maximumClients: Int = 256, reservedClients: Int = 8, idleTimeout: Duration? = .seconds(10),
            queueCapacity: Int = 512, stallTimeout: Duration = .seconds(10),
            release: String = DaemonVersion.release, writeBufferLimit: Int = 64 * 1024
        ) {
            self.maximumClients = maximumClients
            self.reservedClients = reservedClients
            self.idleTimeout = idleTimeout
            self.queueCapacity = queueCapacity
            self.stallTimeout = stallTimeout
            self.release = release
            self.writeBufferLimit = writeBufferLimit
        }

        /// The slots a peer that may not change the scale can take.
        package var openClients: Int { maximumClients - min(max(reservedClients, 0), maximumClients - 1) }

        /// The `ERROR` message for a client turned away because the slots it may take are full.
        func refusal(reserved: Bool) -> String {
            guard !reserved, openClients < maximumClients else {
                return "too many clients (limit \(maximumClients)); try again later"
            }
            return
                "too many clients (limit \(maximumClients), of which the last \(maximumClients - openClients) are kept "
                + "for clients that may change the scale); try again later"
        }
    }

    package let configuration: Configuration

    private struct State {
        var clients: [Int: Registration] = [:] {
            didSet { snapshot = Array(clients.values) }
        }
        /// The clients as an array, rebuilt on connect and disconnect, so that publishing only
        /// retains it instead of copying the dictionary for every report.
        var snapshot: [Registration] = []
        var nextID = 1
        var closed = false
        var drains: [ObjectIdentifier: LoopDrains] = [:]
    }

    /// A connected client. A class, so that publishing to it retains one reference, not four.
    final class Registration: Sendable {
        let outbox: ClientOutbox
        let channel: any Channel
        let session: NIOLoopBound<ClientSession>
        let drains: LoopDrains

        init(outbox: ClientOutbox, channel: any Channel, session: NIOLoopBound<ClientSession>, drains: LoopDrains) {
            self.outbox = outbox
            self.channel = channel
            self.session = session
            self.drains = drains
        }
    }

    /// The clients of one event loop with reports newly queued. A report wakes each loop
    /// once, and the loop then writes to each of its clients in turn, rather than being handed
    /// one task per client.
    final class LoopDrains: Sendable {
        let eventLoop: any EventLoop
        private let waiting = Mutex<(sessions: [NIOLoopBound<ClientSession>], scheduled: Bool)>(([], false))

        init(eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
        }

        /// Adds a client whose outbox needs draining, waking the loop if it is not already due.
        func add(_ session: NIOLoopBound<ClientSession>) {
            let wake = waiting.withLock { waiting in
                waiting.sessions.append(session)
                defer { waiting.scheduled = true }
                return !waiting.scheduled
            }
            if wake {
                eventLoop.execute { self.run() }
            }
        }

        private func run() {
            let sessions = waiting.withLock { waiting in
                waiting.scheduled = false
                var taken: [NIOLoopBound<ClientSession>] = []
                swap(&taken, &waiting.sessions)
                return taken
            }
            for session in sessions {
                session.value.reportsQueued()
            }
        }
    }

    private let state = Mutex(State())

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The number of connected clients.
    package var clientCount: Int { state.withLock { $0.clients.count } }

    /// The subscriptions of the connected clients, by client ID (for `?DEVICES`-style
    /// statistics and tests).
    package var subscriptions: [Int: Subscription] {
        let outboxes = state.withLock { $0.clients.mapValues(\.outbox) }
        return outboxes.mapValues(\.subscription)
    }

    /// Hands `publication` to every client subscribed to it. Never blocks on a client; safe
    /// from any thread.
    package func publish(_ publication: Publication) {
        let registrations = state.withLock { $0.snapshot }
        guard !registrations.isEmpty else { return }
        let now = NIODeadline.now()
        for registration in registrations {
            let outbox = registration.outbox
            switch outbox.offer(publication, now: now) {
            case .nothing:
                break
            case .drain:
                scheduleDrain(registration)
            case .armStallTimer(let since):
                armStallTimer(registration, since: since)
            case .drainAndArmStallTimer(let since):
                scheduleDrain(registration)
                armStallTimer(registration, since: since)
            }
        }
    }

    /// The `VERSION` line.
    package var versionReport: String {
        Report.version(
            VersionReport(
                release: configuration.release, protoMajor: DaemonVersion.protocolMajor,
                protoMinor: DaemonVersion.protocolMinor)
        ).line
    }

    /// Adds a client, or returns nil when the slots it may take are full or the hub is closed.
    /// - Parameter reserved: whether the peer may take the slots kept for those who may change
    ///   the scale (``Configuration/reservedClients``).
    func register(channel: any Channel, session: NIOLoopBound<ClientSession>, reserved: Bool) -> ClientOutbox? {
        let limit = reserved ? configuration.maximumClients : configuration.openClients
        return state.withLock { state in
            guard !state.closed, state.clients.count < limit else { return nil }
            let id = state.nextID
            state.nextID += 1
            let loop = channel.eventLoop
            let drains = state.drains[ObjectIdentifier(loop)] ?? LoopDrains(eventLoop: loop)
            state.drains[ObjectIdentifier(loop)] = drains
            let outbox = ClientOutbox(id: id, capacity: configuration.queueCapacity, eventLoop: loop)
            state.clients[id] = Registration(outbox: outbox, channel: channel, session: session, drains: drains)
            return outbox
        }
    }

    func unregister(_ outbox: ClientOutbox) {
        outbox.close()
        _ = state.withLock { $0.clients.removeValue(forKey: outbox.id) }
    }

    /// Refuses new clients and closes every connected one; returns when all are closed.
    func closeAll() async {
        let channels = state.withLock { state in
            state.closed = true
            return state.clients.values.map(\.channel)
        }
        for channel in channels {
            try? await channel.close()
        }
    }

    private func scheduleDrain(_ registration: Registration) {
        registration.drains.add(registration.session)
    }

    private func armStallTimer(_ registration: Registration, since: NIODeadline) {
        let outbox = registration.outbox
        let channel = registration.channel
        channel.eventLoop.scheduleTask(deadline: since + TimeAmount(configuration.stallTimeout)) {
            if outbox.isStalled(since: since) {
                channel.pipeline.fireUserInboundEventTriggered(ClientSession.StalledEvent())
            }
        }
    }
}
