public import PlumHardware

/// A failure of the daemon's transport (sockets, socket activation, sd_notify), as a value
/// that explains itself.
///
/// It names the operation and the thing (a socket path, an address, an environment variable),
/// the `errno` when there is one, and what to do:
///
///     binding /run/plumscale/plumscale.sock: another daemon is listening there; stop it
///     (systemctl stop plumscaled) or configure another socket path
public struct DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for code that must tell them apart.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A system call failed; `errno` says why.
        public static let systemCall = Code(rawValue: "system-call")
        /// Something else occupies the socket path (a file that is not a socket).
        public static let pathOccupied = Code(rawValue: "path-occupied")
        /// Another process is listening on the socket path.
        public static let alreadyRunning = Code(rawValue: "already-running")
        /// A configured value is not acceptable (a non-loopback address, an unknown group).
        public static let invalidConfiguration = Code(rawValue: "invalid-configuration")
        /// The socket-activation environment (`LISTEN_*`) is malformed.
        public static let invalidEnvironment = Code(rawValue: "invalid-environment")
    }

    public var code: Code
    /// The operation in words, such as "binding" or "reading LISTEN_FDS".
    public var operation: String
    /// The thing operated on: a path, an address, a variable.
    public var subject: String
    /// The errno of the failed call, when there was one.
    public var errno: Errno?
    /// What went wrong, when there is no errno or the errno alone does not say it.
    public var detail: String?
    /// What the user can do about it.
    public var hint: String?

    public init(
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

    public var description: String {
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
