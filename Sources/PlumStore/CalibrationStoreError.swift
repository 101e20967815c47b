import PlumCore

internal import PlumSystem

/// Why the calibration store could not load or save, naming the file and how to recover.
///
/// The engine runs the sensor uncalibrated with this error's ``description`` as the reason,
/// so a broken file is never silently used.
public struct CalibrationStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// The file could not be read or written (permissions, disk full, I/O error).
        case io
        /// Not valid JSON or not a calibration file (for example cut off by a full disk).
        case corrupt
        /// The contents do not match the stored checksum.
        case checksumMismatch
        /// Written by a newer PlumScale with a schema this version does not know.
        case futureVersion
        /// The file belongs to a different sensor or gain.
        case wrongSensor
        /// Nothing earlier to roll back to.
        case noHistory
        /// The sensor identity cannot name a file.
        case invalidSensor
    }

    public var code: Code
    /// The file concerned.
    public var path: String
    /// What went wrong.
    public var message: String
    /// The errno of a failed system call, if one failed.
    public var errno: Int32?
    /// How to recover.
    public var hint: String

    public init(code: Code, path: String, message: String, errno: Int32? = nil, hint: String) {
        self.code = code
        self.path = path
        self.message = message
        self.errno = errno
        self.hint = hint
    }

    public var description: String { "\(path): \(message); \(hint)" }

    /// The step failed because the disk (or the quota) is full, ENOSPC or EDQUOT: the file is
    /// sound, and freeing space is the cure.
    public var isNoSpace: Bool { errno.map { Errno(rawValue: $0).isNoSpace } ?? false }
}
