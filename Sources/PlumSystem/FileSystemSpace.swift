#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// How much room the file system holding a path has, from `statvfs(2)`.
///
/// A full state directory is how a kitchen scale loses its zero, its tare and its history
/// without a word (every save fails), so the daemon reports this figure and `plumscale status`
/// warns before it runs out.
package struct FileSystemSpace: Hashable, Sendable {
    /// Bytes an unprivileged process can still write (`f_bavail` × `f_frsize`): the root
    /// reserve, which a daemon not running as root cannot use, is left out.
    package var availableBytes: UInt64
    /// The file system's size in bytes (`f_blocks` × `f_frsize`).
    package var totalBytes: UInt64

    package init(availableBytes: UInt64, totalBytes: UInt64) {
        self.availableBytes = availableBytes
        self.totalBytes = totalBytes
    }

    /// The space of the file system that holds `path`.
    /// - Throws: ``SystemError`` naming the path, such as `ENOENT` for a state directory not
    ///   made yet, with a hint.
    package static func of(_ path: String) throws(SystemError) -> FileSystemSpace {
        switch Syscalls.statFileSystem(path) {
        case .success(let info):
            let fragment = UInt64(info.f_frsize)
            return FileSystemSpace(
                availableBytes: UInt64(info.f_bavail) &* fragment, totalBytes: UInt64(info.f_blocks) &* fragment)
        case .failure(let errno):
            let code: SystemError.Code = errno == .noSuchFileOrDirectory ? .notFound : .systemCall
            throw SystemError(
                code, operation: "reading the free space of", subject: path, errno: errno,
                hint: "check that the directory exists and that this user may read it")
        }
    }
}

extension Syscalls {
    /// `statvfs(2)`.
    static func statFileSystem(_ path: String) -> Result<statvfs, Errno> {
        var info = statvfs()
        return retrying { statvfs(path, &info) }.map { _ in info }
    }
}
