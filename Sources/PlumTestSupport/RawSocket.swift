#if canImport(Glibc)
import Glibc
#endif

/// Direct socket calls for setting up what a test needs: a stale socket file, a listening
/// socket to pass as systemd would. A datagram socket standing in for `$NOTIFY_SOCKET` is a
/// ``DatagramReceiver``.
public enum RawSocket {
    /// A Unix socket of `type` bound to `path` (an abstract name when it starts with '@').
    public static func bound(_ path: String, type: __socket_type) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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

    /// The file mode of `path` (not following a link), nil when there is nothing there.
    public static func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }
}
