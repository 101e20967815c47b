#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp (short, since a Unix socket address holds at most 107 bytes),
/// removed with everything in it when the test ends.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        var template = Array("/tmp/plumd-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { Self.remove(path) }

    private static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            chmod(path, 0o700)
            if let directory = opendir(path) {
                var names: [String] = []
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(directory)
                for name in names { remove(path + "/" + name) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
