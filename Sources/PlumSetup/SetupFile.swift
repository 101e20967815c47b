import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A file setup writes (the configuration, a credential), written so that a crash or a full disk
/// leaves either the old file or the new one, never half of one: a temporary file in the same
/// directory, fsync, rename over the old one, fsync of the directory.
package struct SetupFile {
    /// The steps, one wrapper each; the tests replace one with a failure to prove that the old
    /// file survives and no temporary file is left.
    struct Steps {
        /// A new file with exactly the mode asked for (`O_EXCL | O_NOFOLLOW`, then `fchmod(2)`):
        /// a link planted at the temporary file's name is never followed.
        var write: (String, [UInt8], mode_t) -> Result<Void, Errno> = { path, bytes, mode in
            Syscalls.createNewFile(path, bytes, mode: UInt32(mode))
        }
        var syncFile: (String) -> Result<Void, Errno> = { Syscalls.syncFile($0) }
        var rename: (String, String) -> Result<Void, Errno> = { Syscalls.rename($0, $1) }
        var syncDirectory: (String) -> Result<Void, Errno> = { Syscalls.syncDirectory($0) }
    }

    /// Why a file could not be written: the file, the step, the errno and what to do.
    package struct WriteError: Error, CustomStringConvertible {
        var path: String
        var step: String
        var errno: Errno

        package var description: String {
            let hint =
                switch errno {
                case .permissionDenied, .operationNotPermitted:
                    "run setup as root (sudo plumscale setup), or pass --config and --credentials-dir "
                        + "for files of your own"
                case .noSuchFileOrDirectory:
                    "create the directory first (the package creates /etc/plumscale), or choose another path"
                case .noSpace, .diskQuotaExceeded:
                    "free some space on that file system and run setup again"
                case Errno(rawValue: EROFS):
                    "the file system is read-only: remount it read-write (sudo mount -o remount,rw /) "
                        + "and run setup again"
                default:
                    "check the directory and run setup again"
                }
            return "cannot write \(path): \(step): \(errno); the old file is unchanged. What to do: \(hint)"
        }
    }

    var path: String
    var steps = Steps()

    /// The directory that holds `path`, whose fsync makes the rename durable.
    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The temporary file, in the same directory so that the rename is atomic.
    var temporary: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return (directory == "." && !path.hasPrefix("./") ? "" : directory + "/") + ".\(name).setup-\(getpid())"
    }

    /// Writes `text` with `mode`; on failure the old file is unchanged and the temporary removed.
    func write(_ text: String, mode: mode_t) throws(WriteError) {
        let temporary = self.temporary
        let bytes = Array(text.utf8)
        func fail(_ step: String, _ error: Errno) -> WriteError {
            _ = Syscalls.removeFile(temporary)
            return WriteError(path: path, step: step, errno: error)
        }
        if case .failure(let error) = steps.write(temporary, bytes, mode) {
            throw fail("writing \(temporary)", error)
        }
        if case .failure(let error) = steps.syncFile(temporary) { throw fail("fsync of \(temporary)", error) }
        if case .failure(let error) = steps.rename(temporary, path) {
            throw fail("renaming \(temporary) over it", error)
        }
        // The new file is in place; only its durability across a power cut is left to make sure of.
        if case .failure(let error) = steps.syncDirectory(directory) {
            throw WriteError(path: path, step: "fsync of \(directory)", errno: error)
        }
    }

    /// The file's text, or nil when there is none.
    func existing() throws(WriteError) -> String? {
        switch Syscalls.readWholeFile(path, limit: 1 << 20) {
        case .success(let bytes): return bytes.map { String(decoding: $0, as: UTF8.self) }
        case .failure(let error): throw WriteError(path: path, step: "reading it", errno: error)
        }
    }

    /// A unified-style diff of `old` and `new` (`-` lines go, `+` lines come), with three
    /// lines of context around each change; "" when they are the same.
    static func diff(_ old: String, _ new: String, oldName: String, newName: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a != b else { return "" }
        // The longest common subsequence, by dynamic programming: configuration files are short.
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [(Character, String, Int, Int)] = []  // kind, line, old and new 1-based numbers
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append((" ", a[i], i + 1, j + 1))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                edits.append(("-", a[i], i + 1, j + 1))  // what goes before what comes, as diff -u
                i += 1
            } else {
                edits.append(("+", b[j], i + 1, j + 1))
                j += 1
            }
        }
        let changed = edits.indices.filter { edits[$0].0 != " " }
        var lines = ["--- \(oldName)", "+++ \(newName)"]
        var index = 0
        while index < changed.count {
            let start = max(0, changed[index] - 3)
            var end = min(edits.count - 1, changed[index] + 3)
            while index + 1 < changed.count, changed[index + 1] - 3 <= end + 1 {
                index += 1
                end = min(edits.count - 1, changed[index] + 3)
            }
            let hunk = edits[start...end]
            let oldCount = hunk.filter { $0.0 != "+" }.count
            let newCount = hunk.filter { $0.0 != "-" }.count
            lines.append("@@ -\(hunk.first!.2),\(oldCount) +\(hunk.first!.3),\(newCount) @@")
            lines += hunk.map { "\($0.0)\($0.1)" }
            index += 1
        }
        return lines.joined(separator: "\n")
    }
}
