package import PlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Tells systemd about the daemon's state, as `sd_notify(3)` does: one datagram per message to
/// the socket in `$NOTIFY_SOCKET` (a path, or an abstract name when it starts with '@').
///
/// Without `$NOTIFY_SOCKET` (not under systemd, or `Type=simple`) every call does nothing.
package struct SystemdNotifier: Hashable, Sendable {
    /// The notification socket's address, or nil when not under systemd.
    package let socketPath: String?

    /// A notifier for `$NOTIFY_SOCKET` of `environment`.
    package init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"]
        socketPath = path?.isEmpty == false ? path : nil
    }

    /// A notifier for the process's own `$NOTIFY_SOCKET`.
    package static func fromProcessEnvironment() -> SystemdNotifier {
        SystemdNotifier(environment: getenv("NOTIFY_SOCKET").map { ["NOTIFY_SOCKET": String(cString: $0)] } ?? [:])
    }

    /// `READY=1`, with an optional `STATUS=`: the sockets accept connections.
    package func ready(status: String? = nil) throws(SystemError) {
        try send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=`, as `Type=notify-reload` (systemd 253) requires;
    /// send ``ready(status:)`` when the reload is done.
    package func reloading() throws(SystemError) {
        try send(["RELOADING=1", "MONOTONIC_USEC=\(Self.monotonicMicroseconds())"])
    }

    /// `STOPPING=1`: shutdown has begun.
    package func stopping() throws(SystemError) { try send(["STOPPING=1"]) }

    /// `STATUS=…`: one line for `systemctl status`.
    package func status(_ text: String) throws(SystemError) { try send(["STATUS=\(text)"]) }

    /// `WATCHDOG=1`: the daemon is alive and healthy.
    package func watchdog() throws(SystemError) { try send(["WATCHDOG=1"]) }

    /// Sends `assignments` (`NAME=value`, no newlines) as one datagram.
    /// - Throws: ``SystemError`` when an assignment is malformed or the socket cannot be reached.
    package func send(_ assignments: [String]) throws(SystemError) {
        guard let socketPath else { return }
        for assignment in assignments where !assignment.contains("=") || assignment.contains("\n") {
            throw SystemError(
                .invalidConfiguration, operation: "notifying systemd of", subject: "'\(assignment)'",
                detail: "each notification is one NAME=value without a newline")
        }
        let message = assignments.joined(separator: "\n")
        // '@' names an abstract socket (a leading NUL), as systemd writes it.
        let address = try? UnixSocketAddress(parsing: socketPath)
        guard let address, address.isAbstract || socketPath.hasPrefix("/") else {
            throw SystemError(
                .invalidEnvironment, operation: "reading", subject: "NOTIFY_SOCKET=\"\(socketPath)\"",
                detail: "an absolute path or an '@' abstract name of at most "
                    + "\(UnixSocketAddress.maximumNameLength) bytes was expected")
        }

        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .systemCall("creating a socket to notify", socketPath) }
        defer { close(descriptor) }
        // Never blocking: the callers run on the concurrency pool, and a receiver that stopped
        // reading (a stalled manager, or a test's socket left behind) would hold a pool thread
        // for good. A notification that does not fit now is dropped and said; the watchdog's
        // next ping follows within half its interval.
        let sent = message.utf8CString.withUnsafeBufferPointer { text in
            address.withSockaddr {
                sendto(descriptor, text.baseAddress, text.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, $1)
            }
        }
        guard sent >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw .systemCall(
                    "notifying systemd through", socketPath,
                    hint: "its notification socket is full, so '\(message.prefix(40))' was dropped rather than wait")
            }
            throw .systemCall(
                "notifying systemd through", socketPath, hint: "is systemd's notification socket reachable?")
        }
    }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd compares `MONOTONIC_USEC` with.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
