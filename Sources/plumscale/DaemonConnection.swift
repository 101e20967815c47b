import PlumProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A connection to `plumscaled`'s JSON socket: blocking line I/O with timeouts, for commands
/// that ask a question and print the answer.
///
/// A CLI does one thing at a time, so plain `poll(2)` and `read(2)` are clearer here than an
/// event loop; the daemon side is the one that must serve many clients at once.
final class DaemonConnection {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var searched = 0
    /// The greeting the daemon sent on connect.
    private(set) var version: VersionReport?

    /// Connects to `path` and reads the VERSION greeting.
    /// - Throws: ``ClientError`` saying whether the daemon is not running, the socket is not
    ///   ours to open, or the peer is not a PlumScale daemon.
    init(path: String) throws(ClientError) {
        self.path = path
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ClientError(.usage, "socket path \(path) is longer than a Unix socket address allows; use a shorter path")
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError(.daemon, "socket(AF_UNIX): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // From here on a failed init still runs deinit, which closes `fd`: closing it here too
        // could close a descriptor another thread (the demo's daemon) was just given.
        if result != 0 { throw ClientError.connecting(path, errno: errno) }
        switch try next(timeout: 5) {
        case .version(let greeting)?:
            version = greeting
        case .error(let message)?:
            throw ClientError(.daemon, "plumscaled at \(path) turned the connection away: \(message)")
        default:
            throw ClientError(.daemon, "\(path) did not greet like plumscaled (no VERSION line); is it another program's socket?")
        }
    }

    deinit { close(fd) }

    /// Sends one request line.
    func send(_ request: String) throws(ClientError) {
        let line = Array((request.hasSuffix("\n") ? request : request + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let written = line[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError.lost(path, detail: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// The next report, or nil when `timeout` seconds pass without a complete line.
    /// - Throws: ``ClientError`` when the daemon closes the connection or sends something
    ///   that is not a report.
    func next(timeout: Double) throws(ClientError) -> Report? {
        guard let line = try nextLine(timeout: timeout) else { return nil }
        do {
            return try Report.decode(line[...])
        } catch {
            throw ClientError(.daemon, "\(path): \(error)")
        }
    }

    /// Sends `request` and returns the first reply that `match` accepts, skipping streamed
    /// reports; an ERROR line from the daemon becomes a thrown ``ClientError``.
    func ask<T>(_ request: String, timeout: Double, _ match: (Report) -> T?) throws(ClientError) -> T {
        try send(request)
        let deadline = Monotonic.seconds() + timeout
        while true {
            let left = deadline - Monotonic.seconds()
            guard left > 0, let report = try next(timeout: left) else {
                throw ClientError(.daemon, "plumscaled at \(path) did not answer \(request) within \(Int(timeout)) s")
            }
            if let value = match(report) { return value }
            if case .error(let message) = report { throw ClientError.fromDaemon(message) }
        }
    }

    /// The next complete line, without its newline; nil on timeout.
    func nextLine(timeout: Double) throws(ClientError) -> String? {
        let deadline = Monotonic.seconds() + timeout
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                searched = 0
                return line
            }
            searched = buffer.count
            let left = deadline - Monotonic.seconds()
            if left <= 0 { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 3600) * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ClientError.lost(path, detail: String(cString: strerror(errno)))
            }
            if ready == 0 { continue }
            try fill()
        }
    }

    /// Whether a complete line is already buffered or bytes wait on the socket.
    var hasPendingInput: Bool {
        if buffer[searched...].contains(UInt8(ascii: "\n")) { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// The descriptor, for a caller that polls it together with other things.
    var descriptor: Int32 { fd }

    private func fill() throws(ClientError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw ClientError.lost(path, detail: String(cString: strerror(errno)))
        }
        if count == 0 { throw ClientError.lost(path, detail: "the daemon closed the connection") }
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
}
