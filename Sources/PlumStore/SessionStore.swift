import PlumCore

internal import PlumSystem

/// One checksummed JSON file, `sessions.json` in the state directory, holding the
/// ``SessionBook``: a ``SealedFile`` written as the zero and tare are (the temporary file,
/// fsync, rename over the current one, fsync of the directory), so that a power cut at any
/// moment leaves the book as it was before an item or after it, never half of one. Compact,
/// not indented: it is written after every item and can be a few hundred kB.
public struct SessionStore: Sendable {
    public static let formatName = "plumscale-sessions"
    public static let schemaVersion = 1

    public let directory: String
    let file: SealedFile<SessionBook>

    public init(directory: String = CalibrationStore.defaultDirectory) {
        self.init(directory: directory, files: SystemFileSteps())
    }

    init(directory: String, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        file = SealedFile(
            format: Self.formatName, schemaVersion: Self.schemaVersion, contents: "sessions",
            directory: self.directory, name: "sessions.json", sensor: nil, pretty: false, files: files)
    }

    /// The book's file.
    public var path: String { file.path }

    /// The saved book; an empty one when none was saved; or why the file cannot be used.
    public func load() -> Result<SessionBook, CalibrationStoreError> {
        file.load(hint: "the file is left as it is; move it away to start with no sessions").map { $0 ?? SessionBook() }
    }

    /// Saves `book`, atomically.
    public func save(_ book: SessionBook) -> Result<Void, CalibrationStoreError> {
        file.save(book, unchanged: "the saved sessions are unchanged")
    }
}
