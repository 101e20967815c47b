package import PlumHardware

/// A failure of the daemon's transport (sockets, socket activation, sd_notify), as a value
/// that explains itself.
///
/// It names the operation and the thing (a socket path, an address, an environment variable),
/// the `errno` when there is one, and what to do:
///
///     binding /run/plumscale/plumscale.sock: another daemon is listening there; stop it
///     (systemctl stop plumscaled) or configure another socket path
package struct DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for code that must tell them apart.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// A system call failed; `errno` says why.
        package static let systemCall = Code(rawValue: "system-call")
        /// Something else occupies the socket path (a file that is not a socket).
        package static let pathOccupied = Code(rawValue: "path-occupied")
        /// Another process is listening on the socket path.
        package static let alreadyRunning = Code(rawValue: "already-running")
        /// A configured value is not acceptable (a non-loopback address, an unknown group).
        package static let invalidConfiguration = Code(rawValue: "invalid-configuration")
        /// The per-user socket directory is not this user's private directory (wrong owner or
        /// mode, or a symlink), so a socket there could be captured by someone else.
        package static let untrustedDirectory = Code(rawValue: "untrusted-directory")
        /// The socket-activation environment (`LISTEN_*`) is malformed.
        package static let invalidEnvironment = Code(rawValue: "invalid-environment")
    }

    package var code: Code
    /// The operation in words, such as "binding" or "reading LISTEN_FDS".
    package var operation: String
    /// The thing operated on: a path, an address, a variable.
    package var subject: String
    /// The errno of the failed call, when there was one.
    package var errno: Errno?
    /// What went wrong, when there is no errno or the errno alone does not say it.
    package var detail: String?
    /// What the user can do about it.
    package var hint: String?

    package init(
        _ code: Code, operation: String, subject: String,
        errno: Errno? = nil, detail: String? = nil, hint: String? = nil
    ) {
        self.code = code
        self.operation = operation
        self.subject = subject
        self.errno = errno
        self.detail = detail
        self.hint = hint
    }

    package var description: String {
        var text = "\(operation) \(subject)"
        if let detail { text += ": \(detail)" }
        if let errno { text += detail == nil ? ": \(errno)" : " (\(errno))" }
        if let hint { text += "; \(hint)" }
        return text
    }

    /// A failed system call, with the calling thread's `errno`.
    static func systemCall(_ operation: String, _ subject: String, hint: String? = nil) -> DaemonError {
        DaemonError(.systemCall, operation: operation, subject: subject, errno: .current, hint: hint)
    }
}
