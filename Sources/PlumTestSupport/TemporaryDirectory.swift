import Foundation
import PlumSystem

/// A fresh directory under `/tmp`, removed with everything in it when the value goes away.
///
/// Paths stay short on purpose: a Unix socket path must fit in 107 bytes.
package final class TemporaryDirectory: Sendable {
    package let path: String

    /// Makes the directory.
    /// - Parameter prefix: the start of its name, so a leftover says which tests made it.
    package init(prefix: String = "plum") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FixtureError("making a temporary directory /tmp/\(prefix)-…: \(Errno.current)")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relativePath` inside the directory.
    package func file(_ relativePath: String) -> String { path + "/" + relativePath }

    /// Writes `text` to `relativePath`, making the folders on the way; returns the full path.
    @discardableResult
    package func write(_ relativePath: String, _ text: String) throws -> String {
        let full = file(relativePath)
        let url = URL(fileURLWithPath: full)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return full
    }

    /// Makes `relativePath` and its parents; returns the full path.
    @discardableResult
    package func makeDirectory(_ relativePath: String) throws -> String {
        let full = file(relativePath)
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// The text of `relativePath`, empty when there is no such file.
    package func read(_ relativePath: String) -> String {
        readFile(file(relativePath))
    }
}

/// The text of the file at `path`, empty when it cannot be read.
package func readFile(_ path: String) -> String {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
}

/// Replaces the file at `path` with `text`.
package func writeFile(_ path: String, _ text: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}
