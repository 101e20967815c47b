import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A file setup writes (the configuration, a credential), written by PlumSystem's
/// ``DurableFile`` so that a crash or a full disk leaves either the old file or the new one,
/// never half of one.
package struct SetupFile {
    /// Why a file could not be written: the file, the step, the errno and what to do.
    package struct WriteError: Error, CustomStringConvertible {
        var path: String
        var step: String
        var errno: Errno
        /// Only the directory's fsync failed: the new file is in place.
        var replaced = false

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
            let left =
                replaced ? "the new file is in place but may not survive a power cut" : "the old file is unchanged"
            return "cannot write \(path): \(step): \(errno); \(left). What to do: \(hint)"
        }
    }

    var path: String
    /// The write's steps; the tests fail one to prove that the old file survives and no
    /// temporary file is left.
    var steps: any FileSteps = SystemFileSteps()

    /// The directory that holds `path`, whose fsync makes the rename durable.
    var directory: String { DurableFile.directory(of: path) }

    /// The temporary file, in the same directory so that the rename is atomic.
    var temporary: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return (directory == "." && !path.hasPrefix("./") ? "" : directory + "/") + ".\(name).setup-\(getpid())"
    }

    /// Writes `text` with `mode` through PlumSystem's durable write; on failure the old file is
    /// unchanged and the temporary file removed.
    func write(_ text: String, mode: mode_t) throws(WriteError) {
        let file = DurableFile(path: path, temporary: temporary, mode: UInt32(mode), steps: steps)
        if case .failure(let failure) = file.replace(with: Array(text.utf8)) {
            throw WriteError(path: path, step: failure.step, errno: failure.errno, replaced: failure.replaced)
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
