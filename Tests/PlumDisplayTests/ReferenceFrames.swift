import Glibc
import PlumSystem
import Testing

/// The reference frames stored beside the tests, in `Frames/`.
enum ReferenceFrames {
    static let directory: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Frames"
    }()

    /// Whether the suite writes the frames it draws instead of comparing them.
    static var recording: Bool { getenv("PLUMSCALE_RECORD_FRAMES").map { String(cString: $0) } == "1" }

    /// Compares `text` with the stored frame `name`; records it instead when asked to.
    static func check(_ text: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = directory + "/" + name
        if recording {
            _ = Syscalls.removeFile(path)
            try Syscalls.createNewFile(path, Array(text.utf8), mode: 0o644).get()
            return
        }
        let stored = try #require(
            try? Syscalls.readWholeFile(path).get(),
            "no reference frame \(name); run with PLUMSCALE_RECORD_FRAMES=1 and look at it",
            sourceLocation: sourceLocation)
        #expect(
            String(decoding: stored, as: UTF8.self) == text, "\(name) differs from its reference",
            sourceLocation: sourceLocation)
    }
}
