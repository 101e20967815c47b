internal import PlumSystem

/// An errno from a file step, as the stores keep it (the crash tests make their own).
struct FileErrno: Error, Hashable {
    var code: Int32

    init(_ code: Int32) { self.code = code }

    init(_ errno: Errno) { self.code = errno.rawValue }

    /// E.g. `Permission denied (EACCES)`, the system's message and the errno's name.
    var text: String { Errno(rawValue: code).description }

    /// ENOSPC or EDQUOT: nothing was wrong with the file, the disk (or the quota) is full, and
    /// freeing space is what to do.
    var isNoSpace: Bool { code == Errno.noSpace.rawValue || code == Errno.diskQuotaExceeded.rawValue }
}
