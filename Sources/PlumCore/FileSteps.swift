/// The file operations the calibration store is built from, one call per crash-relevant step.
///
/// The real implementation makes the POSIX calls; tests wrap it to stop after any step and
/// prove that what is left on disk always loads as the old or the new calibration.
protocol FileSteps: Sendable {
    /// The whole file, or `nil` when it does not exist.
    func read(_ path: String) -> Result<[UInt8]?, FileErrno>
    /// Creates or truncates `path` and writes `bytes` (no fsync).
    func write(_ path: String, _ bytes: [UInt8]) -> Result<Void, FileErrno>
    /// fsync(2) of a file's data and metadata.
    func syncFile(_ path: String) -> Result<Void, FileErrno>
    /// link(2): a second name for the same file.
    func link(_ existing: String, _ new: String) -> Result<Void, FileErrno>
    /// rename(2): atomically replaces `to`.
    func rename(_ from: String, _ to: String) -> Result<Void, FileErrno>
    /// unlink(2); a missing file is not an error.
    func remove(_ path: String) -> Result<Void, FileErrno>
    /// The names in a directory (readdir(3)), without `.` and `..`.
    func list(_ directory: String) -> Result<[String], FileErrno>
    /// fsync(2) of a directory, making renames and links in it durable.
    func syncDirectory(_ path: String) -> Result<Void, FileErrno>
}
