internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connected Unix stream socket read and written in lines, with deadlines: blocking
/// `poll(2)`, `recv(2)` and `send(2)`, which is all a client that does one thing at a time needs.
final class LineChannel {
    let path: String
    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// How far ``buffer`` has been searched for a newline, so a long partial line is scanned once.
    private var searched = 0

    /// Connects to the socket at `path`.
    /// - Throws: ``ClientError`` saying whether the path is unusable, nobody listens, or the
    ///   socket is not ours to open.
    init(connectingTo path: String) throws(ClientError) {
        self.path = path
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw ClientError(
                .invalidPath, socketPath: path,
                path.isEmpty
                    ? "the socket path is empty; pass --socket PATH or set \(DaemonSocket.environmentVariable)"
                    : error.description)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            let error = errno
            throw ClientError(
                .systemCall, socketPath: path, "socket(AF_UNIX): \(Errno(rawValue: error))",
                errno: error)
        }
        // Every stored property is set from here on, so a failed init still runs deinit, which
        // closes `fd`: closing it here too could close a descriptor another thread was just given.
        descriptor = fd
        let result = address.withSockaddr { connect(fd, $0, $1) }
        if result != 0 { throw ClientError.connecting(path, errno: errno) }
    }

    deinit { close(descriptor) }

    /// Writes `line` and a newline, whole.
    func send(_ line: String) throws(ClientError) {
        let bytes = Array((line.hasSuffix("\n") ? line : line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                throw ClientError.lost(path, Errno(rawValue: error).description, errno: error)
            }
            offset += written
        }
    }

    /// The next complete line, without its newline; nil when `deadline` (monotonic seconds)
    /// passes first. A nil deadline waits as long as it takes.
    func nextLine(deadline: Double?) throws(ClientError) -> String? {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                searched = 0
                return line
            }
            searched = buffer.count
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - Monotonic.seconds()
                if left <= 0 { return nil }
                milliseconds = Int32(min(left, 3600) * 1000) + 1
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 {
                let error = errno
                if error == EINTR { continue }
                throw ClientError.lost(path, Errno(rawValue: error).description, errno: error)
            }
            if ready > 0 { try fill() }
        }
    }

    /// Whether a complete line is buffered or bytes wait on the socket.
    var hasPendingInput: Bool {
        if buffer[searched...].contains(UInt8(ascii: "\n")) { return true }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// Shuts the socket down both ways, which wakes a thread blocked reading it; the descriptor
    /// stays open until deinit, so its number cannot be reused meanwhile.
    func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func fill() throws(ClientError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            let error = errno
            if error == EINTR || error == EAGAIN { return }
            throw ClientError.lost(path, Errno(rawValue: error).description, errno: error)
        }
        if count == 0 { throw ClientError.lost(path, "the daemon closed the connection") }
        buffer.append(contentsOf: chunk[..<count])
    }
}

/// Seconds on the monotonic clock, for deadlines.
enum Monotonic {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The deadline `duration` from now; nil stays nil (no deadline).
    static func deadline(after duration: Duration?) -> Double? {
        duration.map { seconds() + $0.seconds }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
