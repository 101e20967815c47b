/// The file calls a durable write is made of, one per crash-relevant step.
///
/// ``SystemFileSteps`` makes the system calls; tests wrap it to fail any one step, or to
/// "lose power" after any step, and prove that what is left on disk is the old file or the new
/// one, never half of either.
package protocol FileSteps: Sendable {
    /// The whole file, or `nil` when it does not exist; `EFBIG` past `limit` bytes.
    func read(_ path: String, limit: Int) -> Result<[UInt8]?, Errno>
    /// Creates `path` anew with exactly `mode` and writes `bytes` (no fsync); a stale file of
    /// that name is removed first, and a link planted there is never followed
    /// (``Syscalls/createNewFile(_:_:mode:)``).
    func create(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, Errno>
    /// fsync(2) of a file's data and metadata.
    func syncFile(_ path: String) -> Result<Void, Errno>
    /// link(2): a second name for the same file.
    func link(_ existing: String, _ new: String) -> Result<Void, Errno>
    /// rename(2): atomically replaces `to`.
    func rename(_ from: String, _ to: String) -> Result<Void, Errno>
    /// unlink(2); a missing file is not an error.
    func remove(_ path: String) -> Result<Void, Errno>
    /// The names in a directory (readdir(3)), without `.` and `..`.
    func list(_ directory: String) -> Result<[String], Errno>
    /// fsync(2) of a directory, making renames and links in it durable.
    func syncDirectory(_ path: String) -> Result<Void, Errno>
}

/// ``FileSteps`` as the system calls, through ``Syscalls`` (which retry on EINTR).
package struct SystemFileSteps: FileSteps {
    package init() {}

    package func read(_ path: String, limit: Int) -> Result<[UInt8]?, Errno> {
        Syscalls.readWholeFile(path, limit: limit)
    }
    package func create(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, Errno> {
        Syscalls.createNewFile(path, bytes, mode: mode)
    }
    package func syncFile(_ path: String) -> Result<Void, Errno> { Syscalls.syncFile(path) }
    package func link(_ existing: String, _ new: String) -> Result<Void, Errno> { Syscalls.link(existing, new) }
    package func rename(_ from: String, _ to: String) -> Result<Void, Errno> { Syscalls.rename(from, to) }
    package func remove(_ path: String) -> Result<Void, Errno> { Syscalls.removeFile(path) }
    package func list(_ directory: String) -> Result<[String], Errno> { Syscalls.listDirectory(directory) }
    package func syncDirectory(_ path: String) -> Result<Void, Errno> { Syscalls.syncDirectory(path) }
}

/// The one way PlumScale replaces a file so that a crash, a power cut or a full disk at any
/// moment leaves the old contents or the new ones: the engine's state files, and the
/// configuration and credentials setup writes.
///
/// The steps: create a temporary file in the same directory (`O_EXCL | O_NOFOLLOW`, exactly
/// ``mode``), fsync it, optionally keep the current file as `PATH.prev` (link, then rename, so
/// a whole copy is always there), rename the temporary file over `PATH`, fsync the directory.
/// A step that fails before the rename removes the temporary file: on a full disk it holds the
/// blocks the next try needs.
package struct DurableFile: Sendable {
    /// The file replaced.
    package var path: String
    /// The temporary file, in the same directory so that the rename is atomic.
    package var temporary: String
    /// The new file's permission bits, whatever the umask.
    package var mode: UInt32
    package var steps: any FileSteps

    /// - Parameter temporary: the temporary file's name; `PATH.tmp` unless given.
    package init(path: String, temporary: String? = nil, mode: UInt32 = 0o644, steps: any FileSteps = SystemFileSteps())
    {
        self.path = path
        self.temporary = temporary ?? path + ".tmp"
        self.mode = mode
        self.steps = steps
    }

    /// The directory that holds ``path``, whose fsync makes the rename durable.
    package var directory: String { Self.directory(of: path) }

    /// The directory part of `path`: `.` for a bare name, `/` for a file at the root.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A step that failed: which, on what, and whether the new file was already in place.
    package struct Failure: Error, Equatable {
        /// What was being done, with the file it was done to: "renaming /x.tmp to /x".
        package var step: String
        package var errno: Errno
        /// Only the directory's fsync failed: the new file is in place, but may not survive a
        /// power cut. Otherwise the old file is as it was.
        package var replaced: Bool

        package init(step: String, errno: Errno, replaced: Bool) {
            self.step = step
            self.errno = errno
            self.replaced = replaced
        }
    }

    /// Replaces the file's contents with `bytes`, durably.
    /// - Parameter keepPrevious: keep the current file as `PATH.prev` first; it must exist.
    package func replace(with bytes: [UInt8], keepPrevious: Bool = false) -> Result<Void, Failure> {
        let previous = path + ".prev"
        var sequence: [(String, () -> Result<Void, Errno>)] = [
            ("writing \(temporary)", { steps.create(temporary, bytes, mode: mode) }),
            ("syncing \(temporary)", { steps.syncFile(temporary) })
        ]
        if keepPrevious {
            sequence += [
                ("removing \(previous).tmp", { steps.remove(previous + ".tmp") }),
                ("linking \(path) to \(previous).tmp", { steps.link(path, previous + ".tmp") }),
                ("renaming \(previous).tmp to \(previous)", { steps.rename(previous + ".tmp", previous) })
            ]
        }
        sequence += [
            ("renaming \(temporary) to \(path)", { steps.rename(temporary, path) }),
            ("syncing directory \(directory)", { steps.syncDirectory(directory) })
        ]
        for (index, (what, step)) in sequence.enumerated() {
            if case .failure(let error) = step() {
                // Only the directory's fsync comes after the rename: the new file is then in place.
                let replaced = index == sequence.count - 1
                if !replaced { _ = steps.remove(temporary) }
                return .failure(Failure(step: what, errno: error, replaced: replaced))
            }
        }
        return .success(())
    }
}

extension Errno {
    /// ENOSPC or EDQUOT: nothing was wrong with the file, the disk (or the quota) is full, and
    /// freeing space is what to do.
    package var isNoSpace: Bool { self == .noSpace || self == .diskQuotaExceeded }
}
