internal import PlumSystem

/// The POSIX implementation of ``FileSteps``: each step is one of PlumSystem's ``Syscalls``
/// wrappers (which retry on EINTR and return errno), so the store's order of steps stays here,
/// where the crash tests drive it, and the system calls stay in the system layer.
struct POSIXFileSteps: FileSteps {
    func read(_ path: String) -> Result<[UInt8]?, FileErrno> {
        // A calibration file is a few kilobytes; refuse to swallow something enormous.
        Syscalls.readWholeFile(path, limit: 16 * 1024 * 1024).mapError(FileErrno.init)
    }

    func write(_ path: String, _ bytes: [UInt8]) -> Result<Void, FileErrno> {
        Syscalls.writeWholeFile(path, bytes).mapError(FileErrno.init)
    }

    func syncFile(_ path: String) -> Result<Void, FileErrno> { Syscalls.syncFile(path).mapError(FileErrno.init) }

    func syncDirectory(_ path: String) -> Result<Void, FileErrno> {
        Syscalls.syncDirectory(path).mapError(FileErrno.init)
    }

    func link(_ existing: String, _ new: String) -> Result<Void, FileErrno> {
        Syscalls.link(existing, new).mapError(FileErrno.init)
    }

    func rename(_ from: String, _ to: String) -> Result<Void, FileErrno> {
        Syscalls.rename(from, to).mapError(FileErrno.init)
    }

    func remove(_ path: String) -> Result<Void, FileErrno> { Syscalls.removeFile(path).mapError(FileErrno.init) }

    func list(_ directory: String) -> Result<[String], FileErrno> {
        Syscalls.listDirectory(directory).mapError(FileErrno.init)
    }
}
