import Foundation
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A raw line socket, for what the client library does not speak: MT-SICS, exact bytes on the
/// wire, a client that deliberately reads too slowly. JSON-protocol tests use `DaemonClient`.
///
/// Every read has a 10 s receive timeout, so no test can hang on it.
package final class LineSocket: @unchecked Sendable {
    // @unchecked: used by one thread at a time; the tests hand it across `offPool` only.
    package let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to the Unix socket at `path`.
    /// - Parameter receiveBuffer: shrinks SO_RCVBUF, to make a slow reader quickly.
    package init(path: String, receiveBuffer: Int32? = nil) throws {
        let address = try UnixSocketAddress(path: path)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        try configureAndConnect("\(path)") { fd in address.withSockaddr { connect(fd, $0, $1) } }
    }

    /// Connects to `127.0.0.1:port`.
    package init(loopbackPort port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let address = InternetSocketAddress.loopback(port: UInt16(port))
        try configureAndConnect("\(address)") { fd in address.withSockaddr { connect(fd, $0, $1) } }
    }

    private func configureAndConnect(_ name: String, _ connectCall: (Int32) -> Int32) throws {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // deinit closes the descriptor, also when this throws.
        guard connectCall(descriptor) == 0 else {
            throw FixtureError("connecting to \(name): \(Errno.current)")
        }
    }

    deinit { close(descriptor) }

    /// Writes `line` and a newline.
    package func send(_ line: String, terminator: String = "\n") {
        let bytes = Array((line + terminator).utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line without its newline; nil on timeout or end of stream.
    package func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Bytes the kernel holds for this socket that have not been read yet (`FIONREAD`): a client
    /// that does not read sees it stop growing once the sender can write no more.
    package var pendingBytes: Int {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
    }

    /// Reads lines until one satisfies `predicate` (at most `limit` lines); nil when none did.
    package func readUntil(limit: Int = 2000, _ predicate: (String) -> Bool) -> String? {
        for _ in 0..<limit {
            guard let line = readLine() else { return nil }
            if predicate(line) { return line }
        }
        return nil
    }
}
