#if canImport(Glibc)
import Glibc
#endif

/// Direct socket calls for setting up what a test needs: a stale socket file, a listening
/// socket to pass as systemd would, a datagram socket standing in for `$NOTIFY_SOCKET`.
enum RawSocket {
    /// A Unix socket of `type` bound to `path` (an abstract name when it starts with '@').
    static func bound(_ path: String, type: __socket_type) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(type.rawValue), 0)
        precondition(descriptor >= 0, "socket: errno \(errno)")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        precondition(result == 0, "bind \(path): errno \(errno)")
        return descriptor
    }

    /// One datagram, waiting at most `timeoutSeconds` (to fail rather than hang).
    static func receive(_ descriptor: Int32, timeoutSeconds: Int = 20) -> String? {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count: Int
        // A signal meant for another test (a child exiting, say) must not end the wait.
        repeat {
            count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// A datagram if one is already waiting; nil otherwise.
    static func receiveNow(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    static func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }
}
