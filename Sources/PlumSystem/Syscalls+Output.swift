#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The programs' own output and their checks of a path, without Foundation or stdio's buffers:
/// a line to stderr written whole, a terminal frame to stdout, whether a file is there.
extension Syscalls {
    /// Writes `bytes` whole to `fd` (a terminal, a pipe), retrying `EINTR` and short writes;
    /// the descriptor stays open.
    @discardableResult
    package static func writeWhole(_ bytes: [UInt8], to fd: Int32) -> Result<Void, Errno> {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                retrying { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            switch result {
            case .success(let count): written += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// `text` to standard error, whole; a closed stderr is nothing to report.
    package static func writeStandardError(_ text: String) { writeWhole(Array(text.utf8), to: 2) }

    /// Whether `path` names something, by access(2) with `F_OK` (links followed).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may write in `path`, by access(2) with `W_OK`: nil, or why not.
    package static func writability(of path: String) -> Errno? { access(path, W_OK) == 0 ? nil : .current }
}
