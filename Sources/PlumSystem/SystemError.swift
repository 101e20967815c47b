/// A failed operation on the system (a file, a device, a socket, the environment), as a value
/// that explains itself.
///
/// It names the operation and the thing operated on (a path, a GPIO line, a bus address, a
/// socket, an environment variable), the `errno` when there is one, what went wrong when the
/// errno alone does not say it, and a hint that says what to do:
///
///     opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'
///     binding /run/plumscale/plumscale.sock: another daemon is listening there; stop it
///     (systemctl stop plumscaled) or configure another socket path
///
/// The hardware layer (as `HardwareError`) and the daemon's transport throw this one shape, so
/// the same errno reads the same wherever it happened.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for code that must tell them apart.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A system call or library call failed; `errno` says why.
        public static let systemCall = Code(rawValue: "system-call")
        /// A chip, line, bus, device or file that was asked for does not exist.
        public static let notFound = Code(rawValue: "not-found")
        /// A wait ran out of time.
        public static let timedOut = Code(rawValue: "timed-out")
        /// A value read from the hardware or from sysfs could not be understood.
        public static let malformed = Code(rawValue: "malformed")
        /// The request itself is not valid (an out-of-range offset, a bad address).
        public static let invalidRequest = Code(rawValue: "invalid-request")
        /// Something else occupies a socket path (a file that is not a socket).
        public static let pathOccupied = Code(rawValue: "path-occupied")
        /// Another process is listening on the socket path.
        public static let alreadyRunning = Code(rawValue: "already-running")
        /// A configured value is not acceptable (a non-loopback address, an unknown group).
        public static let invalidConfiguration = Code(rawValue: "invalid-configuration")
        /// A per-user socket directory is not this user's private directory (wrong owner or
        /// mode, or a symlink), so a socket there could be captured by someone else.
        public static let untrustedDirectory = Code(rawValue: "untrusted-directory")
        /// An environment the process was started with (systemd's `LISTEN_*`) is malformed.
        public static let invalidEnvironment = Code(rawValue: "invalid-environment")
    }

    public var code: Code
    /// The operation in words, such as "opening", "binding" or "reading word 0x00 at".
    public var operation: String
    /// The thing operated on, such as "/dev/gpiochip0", "i2c-1 address 0x48" or a socket path.
    public var subject: String
    /// The errno of the failed call, when there was one.
    public var errno: Errno?
    /// What went wrong when there is no errno (a malformed value, a socket path that another
    /// daemon holds); an errno, when there is one, says it instead.
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

    /// "operation subject: errno or detail; hint". The errno wins over a detail: it is what the
    /// system said, in the words every Linux tool prints.
    public var description: String {
        var text = operation.isEmpty ? subject : "\(operation) \(subject)"
        if let errno { text += ": \(errno)" } else if let detail { text += ": \(detail)" }
        if let hint { text += "; \(hint)" }
        return text
    }

    /// A failed system call, with the calling thread's `errno`.
    public static func systemCall(_ operation: String, _ subject: String, hint: String? = nil) -> SystemError {
        SystemError(.systemCall, operation: operation, subject: subject, errno: .current, hint: hint)
    }

    /// A failed system call whose errno is already known (from a `Result<_, Errno>`).
    public static func systemCall(
        _ operation: String, _ subject: String, errno: Errno, hint: String? = nil
    ) -> SystemError {
        SystemError(.systemCall, operation: operation, subject: subject, errno: errno, hint: hint)
    }
}
