internal import Logging
internal import NIOCore
internal import PlumSystem
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// The daemon's listening sockets, whose connections it accepts itself on one thread of their
/// own and hands to SwiftNIO as connected sockets: half of the transport's fast path, with
/// ``DirectWriter`` the other.
///
/// NIO's server channel does not say which descriptor a connection got, and a JSON session
/// needs it to write its reports straight to the socket (``DirectWriter``, docs/PERFORMANCE.md
/// section 3). The thread sleeps in `poll(2)` on every listening socket and on an `eventfd`
/// that ``stop()`` signals. It never shuts a listening socket down: one that systemd passed
/// keeps the connections queued on it while the daemon restarts.
final class Acceptor: Sendable {
    /// One listening socket and what to do with each connection it accepts.
    struct Listener: Sendable {
        /// A listening socket, non-blocking; it stays its owner's to close, after ``stop()``.
        var descriptor: CInt
        var name: String
        /// Takes ownership of an accepted, non-blocking, close-on-exec socket.
        var accepted: @Sendable (CInt) -> Void
    }

    /// How long the thread waits before accepting again when the daemon is out of descriptors
    /// or memory: the connection stays queued meanwhile, and polling at once would spin.
    private static let retryInterval: Int32 = 100

    private let listeners: [Listener]
    private let wake: CInt
    private let logger: Logger
    private let accept: @Sendable (CInt) -> Result<CInt, Errno>
    private let thread = Mutex<pthread_t?>(nil)

    /// - Parameter accept: takes one connection off a listening socket; `accept4(2)` with
    ///   `SOCK_NONBLOCK | SOCK_CLOEXEC` but in tests that must see a shortage (`EMFILE`) without
    ///   exhausting the whole test process's descriptors.
    /// - Throws: ``SystemError`` when the thread's `eventfd` cannot be made.
    init(
        listeners: [Listener], logger: Logger,
        accept: @escaping @Sendable (CInt) -> Result<CInt, Errno> = { Syscalls.accept($0) }
    ) throws(SystemError) {
        let wake: CInt
        switch Syscalls.wakeDescriptor() {
        case .success(let descriptor): wake = descriptor
        case .failure(let errno):
            throw SystemError.systemCall(
                "creating", "an eventfd for the thread that accepts connections", errno: errno,
                hint: "the daemon is out of descriptors; raise LimitNOFILE= for plumscaled.service")
        }
        self.listeners = listeners
        self.wake = wake
        self.logger = logger
        self.accept = accept
    }

    /// Starts accepting.
    /// - Throws: ``SystemError`` when the thread cannot be started.
    func start() throws(SystemError) {
        let body = Unmanaged.passRetained(AcceptorBody(self))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<AcceptorBody>.fromOpaque(context!).takeRetainedValue().acceptor.run()
                return nil
            }, body.toOpaque())
        guard result == 0 else {
            body.release()
            throw SystemError(
                .systemCall, operation: "starting", subject: "the thread that accepts connections",
                errno: Errno(rawValue: result), hint: "the system is out of threads or memory")
        }
        self.thread.withLock { $0 = thread }
    }

    /// Stops accepting and waits for the thread. The listening sockets stay open, and the
    /// connections already accepted are not touched. Call it once, also when ``start()`` failed.
    func stop() {
        if let thread = self.thread.withLock({ $0.take() }) {
            var one: UInt64 = 1
            _ = write(wake, &one, 8)
            pthread_join(thread, nil)
        }
        close(wake)
    }

    private func run() {
        var polled = listeners.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        polled.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
        var short = false
        while true {
            if poll(&polled, nfds_t(polled.count), -1) < 0 {
                if Errno.current == .interrupted { continue }
                logger.error("waiting for connections: \(Errno.current); trying again")
                poll(nil, 0, Self.retryInterval)
                continue
            }
            if polled[listeners.count].revents != 0 { return }
            for (index, listener) in listeners.enumerated() where polled[index].revents != 0 {
                short = acceptOne(on: listener, short: short)
            }
        }
    }

    /// Accepts one connection from `listener`, which `poll(2)` found with one queued; returns
    /// whether the daemon is short of descriptors or memory, so that a shortage is logged once,
    /// not per attempt. One per wake-up, because Linux takes the descriptor before it looks at
    /// the queue: an `accept` on an empty queue with the table full fails with `EMFILE` too,
    /// and would claim a client waits when none does.
    private func acceptOne(on listener: Listener, short: Bool) -> Bool {
        switch accept(listener.descriptor) {
        case .success(let connection):
            if short { logger.notice("accepting connections on \(listener.name) again") }
            listener.accepted(connection)
            return false
        case .failure(.wouldBlock), .failure(.connectionAborted), .failure(.protocolError):
            // Gone before it was accepted; poll says whether another waits.
            return short
        case .failure(let errno)
        where [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .outOfMemory].contains(errno):
            if !short { logger.error("\(Self.shortage(on: listener.name, errno))") }
            poll(nil, 0, Self.retryInterval)
            return true
        case .failure(let errno):
            logger.error("accepting on \(listener.name): \(errno); trying again")
            poll(nil, 0, Self.retryInterval)
            return short
        }
    }

    /// What the log says, once, when the daemon runs out of descriptors or memory: the errno,
    /// that nobody is refused meanwhile, and what to raise.
    static func shortage(on listener: String, _ errno: Errno) -> SystemError {
        SystemError.systemCall(
            "accepting on", listener, errno: errno,
            hint: "new clients wait in the queue until others disconnect: raise LimitNOFILE= for "
                + "plumscaled.service (or ulimit -n), or lower max_clients")
    }

    /// A listening, non-blocking, close-on-exec socket for `endpoint`: bound here, or the one
    /// systemd passed.
    /// - Throws: ``SystemError`` naming the endpoint and what to do.
    static func listen(on endpoint: ListenerEndpoint, backlog: Int32) throws(SystemError) -> CInt {
        switch endpoint {
        case .unixSocket(let path, _):
            let address = try UnixSocketPath.prepareForBinding(path)
            let hint = "check that the directory is writable by the daemon's user"
            let descriptor = try socket(AF_UNIX, path, hint: hint)
            let bound = address.withSockaddr { Glibc.bind(descriptor, $0, $1) }
            try listen(descriptor, bound: bound, backlog: backlog, subject: path, hint: hint)
            return descriptor
        case .passedDescriptor(let descriptor, let name):
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
                throw SystemError.systemCall(
                    "adopting", "systemd socket '\(name)' (fd \(descriptor))",
                    hint: "check ListenStream= in plumscaled.socket")
            }
            return descriptor
        case .loopbackTCP(let host, let port):
            let subject = endpoint.description
            let address: SocketAddress
            do {
                address = try SocketAddress.makeAddressResolvingHost(host, port: port)
            } catch {
                throw SystemError(
                    .invalidConfiguration, operation: "binding", subject: subject, detail: "\(error)",
                    hint: "use 127.0.0.1 or ::1")
            }
            let hint = "choose another port or stop what uses it"
            let descriptor = try socket(address.protocol.rawValue, subject, hint: hint)
            var one: CInt = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
            let bound = address.withSockAddr { Glibc.bind(descriptor, $0, socklen_t($1)) }
            try listen(descriptor, bound: bound, backlog: backlog, subject: subject, hint: hint)
            return descriptor
        }
    }

    private static func socket(_ family: CInt, _ subject: String, hint: String) throws(SystemError) -> CInt {
        switch Syscalls.streamSocket(family: family) {
        case .success(let descriptor): return descriptor
        case .failure(let errno): throw SystemError.systemCall("binding", subject, errno: errno, hint: hint)
        }
    }

    private static func listen(
        _ descriptor: CInt, bound: CInt, backlog: Int32, subject: String, hint: String
    ) throws(SystemError) {
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let error = SystemError.systemCall(bound == 0 ? "listening on" : "binding", subject, hint: hint)
            close(descriptor)
            throw error
        }
    }

    /// The address `descriptor` is bound to, as NIO spells it; nil when the kernel will not say.
    static func localAddress(of descriptor: CInt) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        if let internet = InternetSocketAddress(storage) {
            if let ipv4 = internet.ipv4 { return SocketAddress(ipv4, host: "") }
            return internet.ipv6.map { SocketAddress($0, host: "") }
        }
        return withUnsafeBytes(of: storage) { raw -> SocketAddress? in
            switch CInt(storage.ss_family) {
            case AF_UNIX:
                let path = raw.load(as: sockaddr_un.self)
                let name = withUnsafeBytes(of: path.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return try? SocketAddress(unixDomainSocketPath: name)
            default:
                return nil
            }
        }
    }
}

/// What the acceptor's thread runs: a C thread entry cannot capture.
private final class AcceptorBody: Sendable {
    let acceptor: Acceptor
    init(_ acceptor: Acceptor) { self.acceptor = acceptor }
}
