import PlumSystem
import PlumTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A plain blocking socket client, as a user's script would be: real `connect(2)`, `read(2)`
/// and `write(2)` against the daemon's socket.
///
/// Blocking calls run on a thread of their own (``TestClient/run(_:)``, which is `offPool`),
/// never on the Swift concurrency pool, which the daemon's request handlers need.
// @unchecked Sendable: a test drives its client from one task, one blocking call at a time, so
// the descriptor and the read buffer are never touched concurrently.
final class TestClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to the Unix socket at `path`; `receiveBuffer` shrinks SO_RCVBUF to make a
    /// slow reader quickly.
    init(path: String, receiveBuffer: Int32? = nil, timeoutSeconds: Int = 20) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        // A generous bound so a broken daemon fails the test instead of hanging it.
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = try UnixSocketAddress(path: path).withSockaddr { connect(descriptor, $0, $1) }
        guard result == 0 else {
            // No close here: a class whose stored properties are all set runs deinit when its
            // init fails, and deinit closes it. Closing twice could close a descriptor another
            // test has just been given the same number for.
            let error = errno
            throw Failure(description: "connect \(path): errno \(error)")
        }
    }

    /// Connects over TCP to `127.0.0.1:port`.
    init(loopbackPort port: Int, timeoutSeconds: Int = 20) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = InternetSocketAddress.loopback(port: UInt16(port)).withSockaddr { connect(descriptor, $0, $1) }
        guard result == 0 else {
            // No close here: a class whose stored properties are all set runs deinit when its
            // init fails, and deinit closes it. Closing twice could close a descriptor another
            // test has just been given the same number for.
            let error = errno
            throw Failure(description: "connect 127.0.0.1:\(port): errno \(error)")
        }
    }

    deinit { close(descriptor) }

    /// Runs a blocking call off the concurrency pool.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await offPool(body)
    }

    func send(_ text: String) async throws {
        try await Self.run { try self.sendBlocking(Array(text.utf8)) }
    }

    func sendBlocking(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "write: errno \(errno)") }
            offset += written
        }
    }

    /// The next line without its newline; nil at end of stream.
    func readLine() async throws -> String? {
        try await Self.run { try self.readLineBlocking() }
    }

    /// `count` bytes; nil at end of stream.
    func readBytes(_ count: Int) async throws -> [UInt8]? {
        try await Self.run {
            while self.buffer.count < count {
                guard try self.fill() else { return nil }
            }
            defer { self.buffer.removeFirst(count) }
            return Array(self.buffer.prefix(count))
        }
    }

    func readLineBlocking() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            guard try fill() else { return nil }
        }
    }

    /// Reads lines until `predicate` matches one; returns all lines read, the match last.
    func readLines(until predicate: @escaping @Sendable (String) -> Bool) async throws -> [String] {
        try await Self.run {
            var lines: [String] = []
            while let line = try self.readLineBlocking() {
                lines.append(line)
                if predicate(line) { return lines }
            }
            throw Failure(description: "connection closed before the expected line; got \(lines.suffix(3))")
        }
    }

    /// Reads until the daemon closes the connection; returns the lines read.
    func readToEnd() async throws -> [String] {
        try await Self.run {
            var lines: [String] = []
            while let line = try self.readLineBlocking() { lines.append(line) }
            if !self.buffer.isEmpty { lines.append(String(decoding: self.buffer, as: UTF8.self)) }
            return lines
        }
    }

    func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Reads into the buffer; false at end of stream (or a reset, which ends it just the same).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw Failure(description: errno == EAGAIN ? "read timed out" : "read: errno \(errno)")
    }
}
