package import Logging
package import NIOCore
internal import NIOPosix
internal import PlumProtocol
internal import PlumSystem
internal import ServiceLifecycle
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// The daemon's listeners: the JSON protocol on one or more endpoints (the Unix socket, maybe a
/// loopback TCP port) and, optionally, MT-SICS on its own endpoints.
///
/// Run it in a `ServiceGroup`: ``run()`` binds (unless ``start()`` already did), serves until
/// graceful shutdown, then closes the listeners and every client. Call ``start()`` first when
/// systemd must be told `READY=1` only once the sockets accept connections.
package final class SocketServer: Service {
    /// The MT-SICS side: where it listens and who answers.
    package struct MTSICS: Sendable {
        package var endpoints: [ListenerEndpoint]
        package var handler: any MTSICSHandler
        package init(endpoints: [ListenerEndpoint], handler: any MTSICSHandler) {
            self.endpoints = endpoints
            self.handler = handler
        }
    }

    package let hub: ClientHub
    private let requestHandler: any RequestHandler
    private let endpoints: [ListenerEndpoint]
    private let mtsics: MTSICS?
    /// The event loops, the publishing one first; connections go to them in turn.
    private let loops: [any EventLoop]
    private let connectionCount = Atomic(0)
    private let notifier: SystemdNotifier?
    private let logger: Logger
    private let authorization: CommandAuthorization
    /// Numbers MT-SICS connections for logs (JSON clients get theirs from the hub).
    private let mtsicsConnections = ConnectionCounter()

    private struct State {
        var listeners: [(endpoint: ListenerEndpoint, descriptor: CInt)] = []
        var acceptor: Acceptor?
        var started = false
        var stopped = false
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - hub: The fan-out the engine publishes into.
    ///   - requestHandler: Answers `?POLL`, `?DEVICES`, `?TARE`, `?ZERO`, `?CALIBRATE`.
    ///   - endpoints: Where the JSON protocol listens.
    ///   - mtsics: The MT-SICS listeners, if any.
    ///   - authorization: Who may send state-changing commands (`?TARE`, `?ZERO`, `?CALIBRATE`,
    ///     MT-SICS `Z`, `T`, `TA` with a value, `TAC`); by default root and the daemon's own user.
    ///   - notifier: Told `STOPPING=1` when graceful shutdown begins.
    package init(
        hub: ClientHub, requestHandler: any RequestHandler, endpoints: [ListenerEndpoint],
        mtsics: MTSICS? = nil, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        authorization: CommandAuthorization = CommandAuthorization(daemonUID: geteuid()),
        notifier: SystemdNotifier? = nil, logger: Logger = Logger(label: "plumscale.transport")
    ) {
        self.authorization = authorization
        self.notifier = notifier
        self.hub = hub
        self.requestHandler = requestHandler
        self.endpoints = endpoints
        self.mtsics = mtsics
        // The first client shares the publishing loop: a lone watcher is written to without a
        // thread being woken.
        let loops = Array(eventLoopGroup.makeIterator())
        self.loops = loops
        self.publishingExecutor = EventLoopTaskExecutor(loops[0])
        self.logger = logger
    }

    /// Where the producer of reports should run: one of the server's event loops. A report
    /// published there reaches that loop's clients in the same turn, without a thread woken.
    package let publishingExecutor: EventLoopTaskExecutor

    /// The addresses the listeners are bound to, in the order of the endpoints (MT-SICS first,
    /// then JSON); empty before ``start()``.
    package var boundAddresses: [SocketAddress?] {
        state.withLock { $0.listeners.map { Acceptor.localAddress(of: $0.descriptor) } }
    }

    /// Binds every listener and starts accepting. Either all listeners are bound or none is
    /// (those bound are closed again on failure).
    /// - Throws: ``SystemError`` naming the endpoint and what to do.
    package func start() async throws {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        guard !alreadyStarted else { return }
        var bound: [(endpoint: ListenerEndpoint, listener: Acceptor.Listener)] = []
        var acceptor: Acceptor?
        /// Binds `endpoint`; each connection it accepts is set up by `initializer`, which is
        /// given the connection's descriptor too.
        func listen(
            _ endpoint: ListenerEndpoint,
            _ initializer: @escaping @Sendable (any Channel, CInt) -> EventLoopFuture<Void>
        ) throws(SystemError) {
            let descriptor = try bind(endpoint)
            let listener = Acceptor.Listener(descriptor: descriptor, name: endpoint.description) { connection in
                self.adopt(connection, from: endpoint) { channel in initializer(channel, connection) }
            }
            bound.append((endpoint, listener))
        }
        do {
            // MT-SICS first: a client greeted on the JSON socket knows every listener is up.
            if let mtsics {
                for endpoint in mtsics.endpoints {
                    let initializer = mtsicsInitializer(for: endpoint, handler: mtsics.handler)
                    try listen(endpoint) { channel, _ in initializer(channel) }
                }
            }
            for endpoint in endpoints {
                try listen(endpoint, jsonInitializer(for: endpoint))
            }
            let started = try Acceptor(listeners: bound.map(\.listener), logger: logger)
            acceptor = started
            try started.start()
            state.withLock { state in
                state.acceptor = started
                state.listeners = bound.map { ($0.endpoint, $0.listener.descriptor) }
            }
        } catch {
            acceptor?.stop()
            for (endpoint, listener) in bound {
                close(listener.descriptor)
                if case .unixSocket(let path, _) = endpoint { UnixSocketPath.removeSocket(path) }
            }
            state.withLock { $0.started = false }
            throw error
        }
        for (endpoint, _) in bound {
            logger.info("listening", metadata: ["endpoint": "\(endpoint)"])
        }
    }

    /// Serves until graceful shutdown (SIGTERM in a `ServiceGroup`) or cancellation.
    package func run() async throws {
        try await start()
        // Returns on graceful shutdown and throws CancellationError when cancelled; either way
        // the listeners and clients are closed before run() returns.
        try? await gracefulShutdown()
        do { try notifier?.stopping() } catch { logger.warning("\(error)") }
        await shutdown()
    }

    /// Closes the listeners (removing the Unix socket files this server created), then every
    /// client connection.
    package func shutdown() async {
        let (listeners, acceptor) = state.withLock { state in
            defer {
                state.listeners = []
                state.acceptor = nil
                state.stopped = true
            }
            return (state.listeners, state.acceptor)
        }
        acceptor?.stop()
        for listener in listeners {
            close(listener.descriptor)
            if case .unixSocket(let path, _) = listener.endpoint {
                UnixSocketPath.removeSocket(path)
            }
        }
        await hub.closeAll()
        if !listeners.isEmpty { logger.info("listeners and clients closed") }
    }

    /// A listening socket for `endpoint`, bound and with its access set.
    private func bind(_ endpoint: ListenerEndpoint) throws(SystemError) -> CInt {
        try endpoint.validate()
        let descriptor = try Acceptor.listen(on: endpoint, backlog: 128)
        if case .unixSocket(let path, let group) = endpoint {
            do {
                try UnixSocketPath.restrictAccess(path, group: group)
            } catch {
                close(descriptor)
                UnixSocketPath.removeSocket(path)
                throw error
            }
        }
        return descriptor
    }

    /// Hands an accepted connection to an event loop, with the options every client gets.
    private func adopt(
        _ connection: CInt, from endpoint: ListenerEndpoint,
        initializer: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>
    ) {
        let limit = hub.configuration.writeBufferLimit
        let logger = self.logger
        let loop = loops[connectionCount.add(1, ordering: .relaxed).oldValue % loops.count]
        ClientBootstrap(group: loop)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelOption(.writeBufferWaterMark, value: .init(low: limit / 2, high: limit))
            .channelOption(.maxMessagesPerRead, value: 4)
            .channelInitializer(initializer)
            .withConnectedSocket(connection)
            .whenFailure { error in
                // A refusal was logged by who refused.
                guard !(error is Refused) else { return }
                logger.warning("\(endpoint): could not set up a connection: \(error); it was closed")
            }
    }

    private func jsonInitializer(for endpoint: ListenerEndpoint)
        -> @Sendable (any Channel, CInt) -> EventLoopFuture<
            Void
        >
    {
        let hub = self.hub
        let handler = self.requestHandler
        let listener = endpoint.description
        let authorization = self.authorization
        return { channel, descriptor in
            Self.peerCredentials(of: channel).flatMapThrowing { peer in
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineFrameDecoder(maximumLength: Request.maximumLineLength)))
                try channel.pipeline.syncOperations.addHandler(
                    ClientSession(
                        hub: hub, handler: handler, listener: listener, peer: peer, authorization: authorization,
                        descriptor: descriptor))
            }
        }
    }

    private func mtsicsInitializer(for endpoint: ListenerEndpoint, handler: any MTSICSHandler)
        -> @Sendable (any Channel) -> EventLoopFuture<Void>
    {
        let listener = endpoint.description
        // A refused TCP client is pointed at the MT-SICS Unix socket, if there is one.
        var pointing = self.authorization
        pointing.unixSocket =
            mtsics?.endpoints.lazy.compactMap { endpoint -> String? in
                if case .unixSocket(let path, _) = endpoint { path } else { nil }
            }.first
        let authorization = pointing
        let logger = self.logger
        let connections = self.mtsicsConnections
        let limit = hub.configuration.maximumClients
        return { channel in
            // The same bound as the JSON listener's, so no number of balance programs can
            // exhaust the daemon's descriptors.
            guard connections.admit(limit: limit) else {
                logger.warning(
                    "MT-SICS on \(listener): more than \(limit) connections (max_clients); closed the newest")
                return channel.eventLoop.makeFailedFuture(Refused())
            }
            channel.closeFuture.whenComplete { _ in connections.release() }
            return Self.peerCredentials(of: channel).flatMapThrowing { peer in
                let id = connections.next()
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineFrameDecoder(maximumLength: MTSICSSession.maximumLineLength)))
                try channel.pipeline.syncOperations.addHandler(
                    MTSICSSession(
                        handler: handler, client: ClientInfo(id: id, listener: listener, peer: peer),
                        authorization: authorization, logger: logger))
            }
        }
    }

    /// The credentials of a Unix-socket peer, taken when the connection is accepted; nil for
    /// TCP, or when the kernel would not say (then the client is read-only, as TCP clients are).
    static func peerCredentials(of channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard case .unixDomainSocket = channel.localAddress, let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        return provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            .map { (credential: SocketPeerCredential) -> PeerCredentials? in
                PeerCredentials(
                    pid: credential.pid, uid: credential.uid, gid: credential.gid,
                    groups: ProcessGroups.read(pid: credential.pid, uid: credential.uid))
            }
            .recover { _ in nil }
    }
}

/// A channel initializer turned the connection away (and said why); the bootstrap closes it.
struct Refused: Error {}

/// Numbers connections, from any event loop.
final class ConnectionCounter: Sendable {
    private let count = Atomic(0)
    private let open = Atomic(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }

    /// Counts one more open connection, unless `limit` are open already.
    func admit(limit: Int) -> Bool {
        if open.add(1, ordering: .relaxed).newValue <= limit { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    /// One admitted connection closed.
    func release() { open.subtract(1, ordering: .relaxed) }
}
