import Dispatch
import PlumProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The reports of a WATCH, as an `AsyncSequence`: the async way to follow plumscaled.
///
/// Each iteration opens its own connection, sends `?WATCH` with the options given, and yields
/// every report after the greeting, starting with the daemon's WATCH answer. A blocking reader
/// on its own thread feeds the sequence and stops reading while `bufferLimit` reports wait
/// unconsumed, so a slow consumer slows the socket (the daemon then drops the oldest reports
/// for it and says so with an `OVERFLOW` report) instead of growing memory. Cancelling the
/// task that iterates, or dropping the iterator, closes the socket.
///
/// ```swift
/// for try await report in ReportStream(watching: WatchOptions(sensors: ["left"])) {
///     if case .weight(let weight) = report { print(weight.display) }
/// }
/// ```
/// The sequence throws ``ClientError`` when it cannot connect or the daemon goes away.
public struct ReportStream: AsyncSequence, Sendable {
    public typealias Element = Report

    public let options: WatchOptions
    /// The socket; nil searches as ``DaemonSocket`` does.
    public let socketPath: String?
    /// Reports read ahead of the consumer before the reader waits.
    public let bufferLimit: Int

    public init(watching options: WatchOptions = WatchOptions(), socketPath: String? = nil, bufferLimit: Int = 256) {
        self.options = options
        self.socketPath = socketPath
        self.bufferLimit = Swift.max(1, bufferLimit)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(StreamReader.start(options: options, socketPath: socketPath, bufferLimit: bufferLimit))
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Report, any Error>.Iterator
        private let owner: Owner

        fileprivate init(_ started: (stream: AsyncThrowingStream<Report, any Error>, reader: StreamReader)) {
            base = started.stream.makeAsyncIterator()
            owner = Owner(reader: started.reader)
        }

        /// Stops the reader when the last copy of the iterator goes away without being cancelled.
        private final class Owner: Sendable {
            let reader: StreamReader
            init(reader: StreamReader) { self.reader = reader }
            deinit { reader.terminate() }
        }

        /// The next report; nil after cancellation.
        /// - Throws: ``ClientError``.
        public mutating func next() async throws -> Report? {
            let report = try await base.next()
            owner.reader.consumed()
            return report
        }
    }
}

/// The thread behind a ``ReportStream``: connects, watches, and yields what it reads.
///
/// Cancellation and reading meet under one lock: the terminating side shuts the socket down
/// by its number only while the reader still holds it open, so it never touches a reused
/// descriptor.
final class StreamReader: Sendable {
    private struct State {
        var descriptor: Int32?
        var finished = false
        /// Reports the consumer has room for.
        var room: Int
        /// The reader waits on ``wake`` for room.
        var waiting = false
        /// The requests the reader sends first (the WATCH, the announcement) have gone: another
        /// thread may write a line now without interleaving with them.
        var ready = false
        /// An announcement was asked for before ``ready``: the reader sends it again then.
        var announcePending = false
    }

    private let state: Mutex<State>
    /// The `?CLIENT` line to send, made when it is sent so it carries the latest facts.
    private let announcement: (@Sendable () -> Request?)?
    /// Signalled only for a reader that said it waits, so its count ends at zero: libdispatch
    /// traps on disposing a semaphore left below its initial value.
    private let wake = DispatchSemaphore(value: 0)

    private init(bufferLimit: Int, announcement: (@Sendable () -> Request?)?) {
        state = Mutex(State(room: bufferLimit))
        self.announcement = announcement
    }

    /// Starts the reader thread; with `greeting`, the daemon's VERSION report comes first, so a
    /// ``DaemonLink`` learns it is connected, and to which release, in the order of the reports.
    static func start(
        options: WatchOptions, socketPath: String?, bufferLimit: Int, greeting: Bool = false,
        announcement: (@Sendable () -> Request?)? = nil
    ) -> (stream: AsyncThrowingStream<Report, any Error>, reader: StreamReader) {
        let reader = StreamReader(bufferLimit: bufferLimit, announcement: announcement)
        let (stream, continuation) = AsyncThrowingStream<Report, any Error>.makeStream()
        continuation.onTermination = { _ in reader.terminate() }
        ReaderThread.start {
            do {
                try reader.run(
                    options: options, socketPath: socketPath, greeting: greeting, continuation: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return (stream, reader)
    }

    /// The consumer took one report: the reader may read one more.
    func consumed() {
        let waiting = state.withLock { state in
            state.room += 1
            defer { state.waiting = false }
            return state.waiting
        }
        if waiting { wake.signal() }
    }

    /// Stops the reader: wakes it from a read or a wait for room; safe to call more than once.
    func terminate() {
        let waiting = state.withLock { state in
            state.finished = true
            if let descriptor = state.descriptor { shutdown(descriptor, Int32(SHUT_RDWR)) }
            defer { state.waiting = false }
            return state.waiting
        }
        if waiting { wake.signal() }
    }

    /// Sends the announcement again on the open connection without waiting: false when there
    /// is none, when the socket cannot take the whole line now, or when the reader has not sent
    /// its first requests yet (it then sends the announcement again itself). Under the lock, so
    /// the descriptor is the reader's own and still open.
    func announceAgain() -> Bool {
        guard let line = announcement?()?.line else { return false }
        let bytes = Array((line + "\n").utf8)
        return state.withLock { state in
            guard let descriptor = state.descriptor, !state.finished else { return false }
            guard state.ready else {
                state.announcePending = true
                return false
            }
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            // A part written would leave half a line: the daemon's framing is lost, so close.
            if written > 0 && written < bytes.count { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return written == bytes.count
        }
    }

    private func run(
        options: WatchOptions, socketPath: String?, greeting: Bool,
        continuation: AsyncThrowingStream<Report, any Error>.Continuation
    ) throws(ClientError) {
        let client = try DaemonClient(socketPath: socketPath)
        let descriptor = client.channel.descriptor
        let proceed = state.withLock { state in
            if !state.finished { state.descriptor = descriptor }
            return !state.finished
        }
        guard proceed else { return }
        // Cleared before `client` (which closes the descriptor) can be released.
        defer {
            state.withLock { $0.descriptor = nil }
            withExtendedLifetime(client) {}
        }
        if greeting {
            guard waitForRoom() else { return }
            continuation.yield(.version(client.version))
        }
        // After the WATCH: its acknowledgement and the alert states that follow it come as
        // soon as before, so a watcher that waits for them (the bridge) is not delayed.
        try client.send(.watch(options))
        if let request = announcement?() { try client.send(request) }
        // Facts that changed while the first lines went out: once more, with them, before
        // another thread may write.
        while state.withLock({ state in
            defer { state.announcePending = false }
            state.ready = !state.announcePending
            return state.announcePending
        }) {
            if let request = announcement?() { try client.send(request) }
        }
        while true {
            let report: Report?
            do {
                report = try client.nextReport(timeout: nil)
            } catch {
                if state.withLock({ $0.finished }) { return }
                throw error
            }
            guard let report else { continue }
            guard waitForRoom() else { return }
            continuation.yield(report)
        }
    }

    /// Waits until the consumer has room; false when the stream was terminated meanwhile.
    private func waitForRoom() -> Bool {
        while true {
            let outcome: Bool? = state.withLock { state in
                if state.finished { return false }
                if state.room > 0 {
                    state.room -= 1
                    return true
                }
                state.waiting = true
                return nil
            }
            if let outcome { return outcome }
            wake.wait()
        }
    }
}
