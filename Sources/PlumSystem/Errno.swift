internal import CPlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A POSIX error number, with its symbolic name and its message.
///
/// Mirrors `errno` after a failed system or library call. The symbolic name (`EACCES`) comes
/// from glibc's `strerrorname_np`, the message from `strerror_r`, so the text users see is the
/// one every Linux tool prints.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno {
        get { Errno(rawValue: errno) }
        set { errno = newValue.rawValue }
    }

    /// The symbolic name, such as `EACCES`, or `E<number>` for an unknown value.
    public var name: String {
        if let name = plum_system_errno_name(rawValue) { return String(cString: name) }
        return "E\(rawValue)"
    }

    /// The system's message, such as "Permission denied".
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 128)
        let text = buffer.withUnsafeMutableBufferPointer {
            plum_system_errno_message(rawValue, $0.baseAddress, UInt($0.count))
        }
        return text.map { String(cString: $0) } ?? "Unknown error \(rawValue)"
    }

    /// "Permission denied (EACCES)".
    public var description: String { "\(message) (\(name))" }

    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let ioError = Errno(rawValue: EIO)
    public static let deviceBusy = Errno(rawValue: EBUSY)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notATypewriter = Errno(rawValue: ENOTTY)
    public static let remoteIOError = Errno(rawValue: EREMOTEIO)
    public static let operationNotPermitted = Errno(rawValue: EPERM)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`, which Linux also spells `EWOULDBLOCK`: a non-blocking call would have waited.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let protocolError = Errno(rawValue: EPROTO)
    /// This process has as many descriptors open as its limit (`RLIMIT_NOFILE`) allows.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// The whole system has as many files open as `fs.file-max` allows.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    public static let outOfMemory = Errno(rawValue: ENOMEM)
    /// The file system is full: a write, a create or a rename needed a block it does not have.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// The user's disk quota is used up, which to the writer is the same as a full disk.
    public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
    /// The descriptor is a pipe or a file, not a socket (`SO_PEERCRED` on standard input).
    public static let notSocket = Errno(rawValue: ENOTSOCK)
}
