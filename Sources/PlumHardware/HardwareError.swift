/// A failed hardware operation, as a value that explains itself.
///
/// It names the operation, the thing operated on (a chip path, a line, a bus address, a sysfs
/// file), the underlying `errno` when there is one, and a hint that says what to do:
///
///     opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'
///     i2c-1 address 0x48: No such device or address (ENXIO); check wiring and i2cdetect -y 1
public struct HardwareError: Error, Hashable, Sendable, CustomStringConvertible {
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
    }

    public var code: Code
    /// The operation in words, such as "opening" or "reading word 0x00".
    public var operation: String
    /// The thing operated on, such as "/dev/gpiochip0", "gpiochip0 line 5" or "i2c-1 address 0x48".
    public var subject: String
    /// The errno of the failed call, when there was one.
    public var errno: Errno?
    /// What the user can do about it.
    public var hint: String?
    /// Extra detail when there is no errno (a malformed value, say).
    public var detail: String?

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
        var text = operation.isEmpty ? subject : "\(operation) \(subject)"
        if let errno { text += ": \(errno)" } else if let detail { text += ": \(detail)" }
        if let hint { text += "; \(hint)" }
        return text
    }
}
