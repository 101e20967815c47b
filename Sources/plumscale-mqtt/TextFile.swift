import PlumSystem

/// Small files the bridge reads at start: the configuration, the password, the machine id.
enum TextFile {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var errno: Errno
        var description: String { "\(path): \(errno)" }
        var isMissing: Bool { errno == .noSuchFileOrDirectory }
    }

    /// The whole file as UTF-8 (at most 1 MiB).
    static func read(_ path: String) throws(Failure) -> String {
        switch Syscalls.readWholeFile(path, limit: 1 << 20) {
        case .success(let bytes?): return String(decoding: bytes, as: UTF8.self)
        case .success(nil): throw Failure(path: path, errno: .noSuchFileOrDirectory)
        case .failure(let error): throw Failure(path: path, errno: error)
        }
    }
}
