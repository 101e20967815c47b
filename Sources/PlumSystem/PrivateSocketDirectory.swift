#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The last-resort socket directory, `/tmp/plumscale-<uid>`, for a daemon run by hand without
/// `XDG_RUNTIME_DIR`, and the one rule both sides of the socket hold it to.
///
/// It sits in world-writable `/tmp`, so another user may have made it first, or planted a
/// symlink there, and would then receive the daemon's socket or the client's requests. The
/// daemon checks it before binding in it and the client before connecting through it: it must
/// be a real directory (`lstat`, so a symlink is refused rather than followed) owned by the
/// user, with mode 0700.
package enum PrivateSocketDirectory {
    /// What ``inspect(_:userID:)`` found.
    package enum Verdict: Equatable, Sendable {
        /// Nothing is there (the daemon may create it; a client finds no daemon).
        case absent
        /// A 0700 directory of the user's own.
        case trusted
        /// Something else: what is wrong (naming the owner and mode found) and what to do.
        case untrusted(problem: String, remedy: String)
        /// `lstat(2)` failed for another reason than a missing path.
        case uninspectable(errno: Int32)
    }

    /// `/tmp/plumscale-<uid>`.
    package static func path(userID: UInt32) -> String { "/tmp/plumscale-\(userID)" }

    /// Judges `directory` for `userID`.
    package static func inspect(_ directory: String, userID: UInt32) -> Verdict {
        var status = stat()
        guard lstat(directory, &status) == 0 else {
            return errno == ENOENT ? .absent : .uninspectable(errno: errno)
        }
        let kind = status.st_mode & S_IFMT
        let mode = status.st_mode & 0o7777
        let found = "owner uid \(status.st_uid), mode 0\(String(mode, radix: 8))"
        let problem: String
        if kind == S_IFLNK {
            problem = "it is a symbolic link (\(found)), not a directory"
        } else if kind != S_IFDIR {
            problem = "it is not a directory (\(found))"
        } else if status.st_uid != userID {
            problem = "it belongs to another user (\(found)), not to uid \(userID)"
        } else if mode != 0o700 {
            problem = "its mode lets others in (\(found)); it must be 0700"
        } else {
            return .trusted
        }
        let remedy =
            status.st_uid == userID && kind == S_IFDIR
            ? "run 'chmod 700 \(directory)'" : "have it removed (it is not yours to trust)"
        return .untrusted(problem: problem, remedy: remedy)
    }
}
