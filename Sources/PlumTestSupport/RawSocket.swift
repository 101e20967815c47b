import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Direct socket calls for setting up what a test needs: a stale socket file, a listening
/// socket to pass as systemd would. A datagram socket standing in for `$NOTIFY_SOCKET` is a
/// ``DatagramReceiver``.
package enum RawSocket {
    /// A Unix socket of `type` bound to `path` (an abstract name when it starts with '@').
    package static func bound(_ path: String, type: __socket_type) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        precondition(descriptor >= 0, "socket: errno \(errno)")
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(parsing: path)
        } catch {
            preconditionFailure("\(error)")
        }
        let result = address.withSockaddr { bind(descriptor, $0, $1) }
        precondition(result == 0, "bind \(path): errno \(errno)")
        return descriptor
    }

    /// The file mode of `path` (not following a link), nil when there is nothing there.
    package static func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }
}
