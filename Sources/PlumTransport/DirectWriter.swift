internal import PlumSystem

/// The transport's fast path for writing: one `send(2)` straight to a client's socket while
/// SwiftNIO holds nothing queued for it, instead of NIO's write and flush.
///
/// Measured worth keeping: it took the fan-out from 5.9 k to 1.5 k instructions a report and
/// client (docs/PERFORMANCE.md, section 3). What the socket's buffer does not take, and every
/// message after it until NIO has written that, goes through NIO, which waits for the socket to
/// become writable and keeps the order; ``ClientSession`` does that with the outcome this
/// reports. Once the connection fails (a reset, a broken pipe) the socket is not written here
/// again: NIO's own write meets the same error and closes the channel its way.
///
/// The socket stays NIO's: the writer never closes it. Used on the channel's event loop only.
struct DirectWriter {
    /// What became of one message.
    enum Outcome: Equatable {
        /// The socket took every byte; nothing is left for NIO.
        case complete
        /// The socket's buffer took the first `sent` bytes (at least one); the rest is NIO's.
        case partial(sent: Int)
        /// The socket's buffer is full (`EAGAIN`): the whole message is NIO's.
        case wouldBlock
        /// The connection is failing, with this errno (`EPIPE`, `ECONNRESET`): the whole message
        /// is NIO's, and the socket is not written here again.
        case failed(Errno)
        /// Not written here: NIO still holds earlier messages (this one must not overtake them),
        /// or the writer has no socket. The whole message is NIO's.
        case deferred
    }

    /// The socket, or -1 once the connection is failing or gone, or when there was none.
    private var descriptor: CInt
    /// Messages handed to NIO and not yet written by it. While any are, every message goes the
    /// same way, so that nothing overtakes them.
    private(set) var queuedInNIO = 0

    /// - Parameter descriptor: a connected, non-blocking socket that NIO owns, or -1 for a
    ///   writer that defers every message to NIO.
    init(descriptor: CInt) {
        self.descriptor = descriptor
    }

    /// Whether the next message may go straight to the socket.
    var isDirect: Bool { descriptor >= 0 && queuedInNIO == 0 }

    /// Writes as much of `bytes` as the socket's buffer takes, unless NIO holds earlier messages.
    mutating func write(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard isDirect else { return .deferred }
        switch Syscalls.send(descriptor, bytes) {
        case .success(let sent) where sent == bytes.count:
            return .complete
        case .success(let sent):
            return sent > 0 ? .partial(sent: sent) : .wouldBlock
        case .failure(.wouldBlock):
            return .wouldBlock
        case .failure(let errno):
            descriptor = -1
            return .failed(errno)
        }
    }

    /// A message (or its rest) was handed to NIO: until NIO has written it, nothing goes direct.
    mutating func handedToNIO() { queuedInNIO += 1 }

    /// NIO finished a message handed to it; when its write failed, the connection is failing and
    /// the socket is not written here again.
    mutating func finishedInNIO(failed: Bool) {
        queuedInNIO -= 1
        if failed { descriptor = -1 }
    }

    /// The connection is going: the socket is NIO's to close, and never written here again.
    mutating func stop() { descriptor = -1 }
}
