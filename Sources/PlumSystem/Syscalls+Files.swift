#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The calls a durable file write is made of, one wrapper each, so that a store can run them
/// step by step (and its tests can stop after any step): write a temporary file, `fsync(2)` it,
/// `rename(2)` it over the old one, `fsync(2)` the directory so the rename survives a power cut.
/// ``DurableFile`` runs them in that order, through ``SystemFileSteps``.
extension Syscalls {
    /// The whole file, or nil when it does not exist; `EFBIG` past `limit` bytes, so that a
    /// small state file never swallows something enormous.
    package static func readWholeFile(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8]?, Errno> {
        let fd: Int32
        switch openFile(path, flags: O_RDONLY) {
        case .success(let value): fd = value
        case .failure(.noSuchFileOrDirectory): return .success(nil)
        case .failure(let error): return .failure(error)
        }
        defer { closeFile(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count: Int
            switch chunk.withUnsafeMutableBytes({ readFile(fd, into: $0) }) {
            case .success(let value): count = value
            case .failure(let error): return .failure(error)
            }
            if count == 0 { return .success(bytes) }
            if bytes.count + count > limit { return .failure(.fileTooLarge) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Creates `path` anew and writes `bytes` whole, with exactly `mode` (`fchmod(2)` on the open
    /// file, whatever the umask): a temporary file in a directory others may write to. A stale
    /// file or link of that name is removed first (`unlink(2)` never follows a link), and the
    /// file is opened with `O_EXCL | O_NOFOLLOW`, so that a link planted between the two is
    /// refused (`EEXIST`, `ELOOP`) rather than followed. No fsync: see ``syncFile(_:)``.
    package static func createNewFile(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, Errno> {
        switch removeFile(path) {
        case .success, .failure(.noSuchFileOrDirectory): break
        case .failure(let error): return .failure(error)
        }
        let fd: Int32
        switch retrying({ open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }) {
        case .success(let value): fd = value
        case .failure(let error): return .failure(error)
        }
        if case .failure(let error) = once({ fchmod(fd, mode_t(mode)) }) {
            closeFile(fd)
            return .failure(error)
        }
        return writeAll(fd, bytes)
    }

    /// Writes `bytes` whole to `fd` (``writeWhole(_:to:)``) and closes it, reporting `close(2)`'s
    /// deferred error too.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, Errno> {
        if case .failure(let error) = writeWhole(bytes, to: fd) {
            closeFile(fd)
            return .failure(error)
        }
        // close(2) reports a deferred write error (NFS, a full quota): it is not ignored here.
        return once { close(fd) }.map { _ in () }
    }

    /// `fsync(2)` of a file's data and metadata.
    package static func syncFile(_ path: String) -> Result<Void, Errno> { sync(path, flags: O_RDONLY) }

    /// `fsync(2)` of a directory, making the renames and links in it durable.
    package static func syncDirectory(_ path: String) -> Result<Void, Errno> {
        sync(path, flags: O_RDONLY | O_DIRECTORY)
    }

    private static func sync(_ path: String, flags: Int32) -> Result<Void, Errno> {
        openFile(path, flags: flags).flatMap { fd in
            defer { closeFile(fd) }
            return retrying { fsync(fd) }.map { _ in () }
        }
    }

    /// `link(2)`: a second name for the same file.
    package static func link(_ existing: String, _ new: String) -> Result<Void, Errno> {
        retrying { Glibc.link(existing, new) }.map { _ in () }
    }

    /// `rename(2)`: atomically replaces `to`.
    package static func rename(_ from: String, _ to: String) -> Result<Void, Errno> {
        retrying { Glibc.rename(from, to) }.map { _ in () }
    }

    /// `unlink(2)`; a file that is not there is no error.
    package static func removeFile(_ path: String) -> Result<Void, Errno> {
        switch retrying({ unlink(path) }) {
        case .success, .failure(.noSuchFileOrDirectory): return .success(())
        case .failure(let error): return .failure(error)
        }
    }

    /// `lstat(2)`: what `path` itself is (a link is reported as a link, not followed).
    package static func linkStatus(_ path: String) -> Result<LinkStatus, Errno> {
        var status = stat()
        return once { lstat(path, &status) }.map { _ in
            LinkStatus(
                isRegularFile: status.st_mode & S_IFMT == S_IFREG, owner: status.st_uid,
                permissions: UInt32(status.st_mode & 0o7777),
                modified: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        }
    }
}

/// What `lstat(2)` says of a path: enough to trust a flag file left by root.
package struct LinkStatus: Sendable, Equatable {
    /// A regular file, not a link, directory or device.
    package var isRegularFile: Bool
    /// Its owner's uid.
    package var owner: UInt32
    /// Its permission bits (`0o644`).
    package var permissions: UInt32
    /// Its modification time, in seconds since the epoch.
    package var modified: Double
}
