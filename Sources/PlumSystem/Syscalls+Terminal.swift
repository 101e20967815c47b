#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A terminal with its echo off, a TCP port probed with a deadline, and whether a program can
/// be run: what a command-line program asks of the system besides files.
extension Syscalls {
    /// Runs `body` with the echo of the terminal on `fd` off (termios), and puts it back after,
    /// whatever `body` does: a password typed is never shown. Fails when `fd` is no terminal or
    /// its settings cannot be changed, and then `body` does not run.
    package static func withoutEcho<T>(_ fd: Int32 = 0, _ body: () throws -> T) throws -> T {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw Errno.current }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { throw Errno.current }
        defer { tcsetattr(fd, TCSAFLUSH, &saved) }
        return try body()
    }

    /// Whether `fd` is a terminal (isatty(3)).
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether `path` is a file this process may run (access(2) with `X_OK`).
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Whether something accepts a TCP connection at `host`:`port` within `timeout` seconds, on
    /// any of the addresses the name has (getaddrinfo(3)); a non-blocking connect, then a wait
    /// for it to finish, then its `SO_ERROR`.
    package static func acceptsConnections(host: String, port: Int, timeout: Double) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            defer { entry = address.pointee.ai_next }
            let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.pointee.ai_family, kind, 0)
            guard fd >= 0 else { continue }
            defer { closeFile(fd) }
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return true }
            guard errno == EINPROGRESS else { continue }
            var wait = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&wait, 1, Int32(timeout * 1000)) == 1 else { continue }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 { return true }
        }
        return false
    }
}
