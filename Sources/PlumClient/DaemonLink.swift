import PlumProtocol
public import PlumSystem
import Synchronization

/// The one reconnecting link to plumscaled that long-running clients (plumscale-web, the MQTT
/// bridge) share: it watches, comes back by itself when the daemon restarts, and carries requests.
///
/// ``run()`` keeps a WATCH connection open for as long as its task lives: it connects, sends the
/// `?WATCH` the caller asked for (again after every reconnect, so a restarted daemon streams the
/// same sensors), and when the connection is lost or cannot be made it waits as ``BackOff`` says
/// and tries again. Subscribers (``events()``, ``states()``, ``reports()``) see the state
/// changes (``State``) and the reports in the order they happened, so the reports of a
/// connection always follow its `connected`. Requests (``tare(sensor:timeout:)``,
/// ``devices(timeout:)``, …) go over a second connection, opened at the first request and
/// again after a loss: a reply is never mistaken for a streamed report. With the daemon away a
/// request fails at once with a ``ClientError`` that names the socket and says what to do.
///
/// ```swift
/// let link = DaemonLink(socketPath: nil, watching: WatchOptions(sensors: ["left"]))
/// let events = link.events()
/// async let running: Void = link.run()
/// for await event in events { … }
/// ```
public final class DaemonLink: Sendable {
    /// Where the link stands with the daemon.
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Trying to connect (at start, and after each pause).
        case connecting
        /// Connected and watching; the daemon's greeting says which release it is.
        case connected(VersionReport)
        /// Not connected; `reason` says why (no daemon at the socket, the daemon closed the
        /// connection, …). The link tries again after a pause unless it was stopped.
        case disconnected(reason: String)

        public var description: String {
            switch self {
            case .connecting: "connecting"
            case .connected(let version): "connected to plumscaled \(version.release)"
            case .disconnected(let reason): "disconnected: \(reason)"
            }
        }
    }

    /// What a subscriber receives: a state change or a report, in the order they happened.
    public enum Event: Hashable, Sendable {
        case state(State)
        case report(Report)
    }

    /// The socket given; nil searches as ``DaemonSocket`` does, again at every attempt (the
    /// system daemon's socket may appear after the link started).
    public let socketPath: String?
    /// The subscription sent after every connect.
    public let options: WatchOptions
    public let backOff: BackOff
    /// Events kept for a subscriber that lags; beyond it the oldest are dropped.
    public let bufferLimit: Int
    /// Who the service is: announced with `?CLIENT` on the WATCH connection after every
    /// connect, right after the `?WATCH` (``announce(detail:)``); nil announces nothing.
    public let announcer: ServiceAnnouncer?

    struct Shared {
        var state = State.disconnected(reason: DaemonLink.notStarted)
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber = 0
        /// The connection requests share; nil until the first, and after a loss.
        var requests: AsyncDaemonClient?
        /// The WATCH connection's reader while one runs, to send an announcement again.
        var reader: StreamReader?
        /// Connections made since ``run()`` began: all but the first are reconnects.
        var established = 0
        /// The reconnects the announcements of the present connection carry.
        var reconnects = 0
        /// The daemon's refusal of the last announcement, if it refused it.
        var announcementRefusal: String?
    }

    let shared = Mutex(Shared())
    /// The reason of the state before ``run()``: requests work without it, they only miss its news.
    static let notStarted = "the link has not started"

    public init(
        socketPath: String? = nil, watching options: WatchOptions = WatchOptions(), backOff: BackOff = BackOff(),
        bufferLimit: Int = 1024, announcing announcer: ServiceAnnouncer? = nil
    ) {
        self.socketPath = socketPath
        self.options = options
        self.backOff = backOff
        self.bufferLimit = max(1, bufferLimit)
        self.announcer = announcer
    }

    /// The state now.
    public var state: State { shared.withLock { $0.state } }

    /// The socket the link tries now: ``socketPath``, or the one ``DaemonSocket`` finds.
    public var resolvedSocketPath: String { DaemonSocket.path(explicit: socketPath) }

    /// Every state change and report from now on, until ``run()`` ends. Subscribe before
    /// starting ``run()`` to see its first `connecting`.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = shared.withLock { shared in
            defer { shared.nextSubscriber += 1 }
            shared.subscribers[shared.nextSubscriber] = continuation
            return shared.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.shared.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The state changes alone, from now on.
    public func states() -> some AsyncSequence<State, Never> & Sendable {
        events().compactMap { event -> State? in if case .state(let state) = event { state } else { nil } }
    }

    /// The reports alone, from now on, across reconnects.
    public func reports() -> some AsyncSequence<Report, Never> & Sendable {
        events().compactMap { event -> Report? in if case .report(let report) = event { report } else { nil } }
    }

    /// Connects, watches and reconnects until the calling task is cancelled; then the
    /// subscribers' sequences end.
    public func run() async {
        var failures = 0
        while !Task.isCancelled {
            publish(.connecting)
            let (stream, reader) = StreamReader.start(
                options: options, socketPath: socketPath, bufferLimit: 256, greeting: true,
                announcement: announcementForNextConnection())
            shared.withLock { $0.reader = reader }
            var reason = "plumscaled closed the connection"
            var connected = false
            do {
                for try await report in stream {
                    reader.consumed()
                    if !connected, case .version(let version) = report {
                        connected = true
                        // A connection was made: the daemon restarted, so the next pause is short.
                        failures = 0
                        shared.withLock { $0.established += 1 }
                        publish(.connected(version))
                    } else if !announcementAnswer(report) {
                        broadcast(.report(report))
                    }
                }
            } catch let error as ClientError {
                reason = error.message
            } catch {
                reason = "\(error)"
            }
            reader.terminate()
            shared.withLock { $0.reader = nil }
            // The requests' connection went with the daemon: the next request opens a new one.
            dropRequestConnection()
            if Task.isCancelled { break }
            publish(.disconnected(reason: reason))
            let pause = backOff.delay(afterFailures: failures)
            failures += 1
            try? await Task.sleep(for: pause)
        }
        publish(.disconnected(reason: "the link was stopped"))
        let subscribers = shared.withLock { shared in
            defer { shared.subscribers = [:] }
            return shared.subscribers.values
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    private func publish(_ state: State) {
        let subscribers = shared.withLock { shared in
            shared.state = state
            return Array(shared.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(.state(state)) }
    }

    /// Yields outside the lock: a yield may resume a task, which takes that task's status lock,
    /// while a task being cancelled holds its status lock and runs the stream's `onTermination`,
    /// which takes this one. Yielding under the lock deadlocked a whole `swift test` run on a
    /// busy machine. Only ``run()`` publishes and broadcasts, so the order is kept.
    private func broadcast(_ event: Event) {
        let subscribers = shared.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    // MARK: - The requests' connection

    /// The shared requests' connection, opened when there is none.
    /// - Throws: ``ClientError`` saying why the daemon cannot be reached, what the link last
    ///   knew, and what to do.
    func requestConnection(for request: Request) async throws(ClientError) -> AsyncDaemonClient {
        if let open = shared.withLock({ $0.requests }) { return open }
        let opened: AsyncDaemonClient
        do {
            opened = try await AsyncDaemonClient(socketPath: socketPath)
        } catch {
            var unavailable = error
            unavailable.message = "cannot send \(request.name): \(error.message)"
            if case .disconnected(let reason) = state, reason != Self.notStarted, !error.message.contains(reason) {
                unavailable.message += " (the link lost the daemon: \(reason); it keeps retrying)"
            }
            throw unavailable
        }
        // Another request may have connected meanwhile; one connection is kept.
        let kept = shared.withLock { shared in
            if let other = shared.requests { return other }
            shared.requests = opened
            return opened
        }
        if kept !== opened { opened.shutDown() }
        return kept
    }

    /// Forgets `client` (or, with nil, whichever connection is open) and shuts it down.
    func dropRequestConnection(_ client: AsyncDaemonClient? = nil) {
        let dropped = shared.withLock { shared -> AsyncDaemonClient? in
            guard let open = shared.requests, client == nil || open === client else { return nil }
            shared.requests = nil
            return open
        }
        dropped?.shutDown()
        client?.shutDown()
    }
}
