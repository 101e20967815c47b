import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Small files the bridge reads at start: the configuration, the password, the machine id.
enum TextFile {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "\(path): \(Errno.current)" }
        var isMissing: Bool { errno == ENOENT }
    }

    /// The whole file as UTF-8 (at most 1 MiB).
    static func read(_ path: String) throws(Failure) -> String {
        guard let file = fopen(path, "r") else { throw Failure(path: path, errno: errno) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= 1 << 20 {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count {
                if ferror(file) != 0 { throw Failure(path: path, errno: errno) }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
