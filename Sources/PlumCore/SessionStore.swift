internal import FoundationEssentials

/// The weighing sessions a daemon keeps: the running one, if any, and the last stopped ones.
///
/// A value, so the station changes it in one place and hands it to ``SessionStore`` to save.
public struct SessionBook: Hashable, Sendable, Codable {
    /// A session with the sensor whose items it records.
    public struct Entry: Hashable, Sendable, Codable {
        public var sensor: String
        public var session: WeighingSession

        public init(sensor: String, session: WeighingSession) {
            self.sensor = sensor
            self.session = session
        }
    }

    /// How many stopped sessions are kept; the oldest goes when one more is stopped. A session
    /// of a crate is a few hundred items, so 50 of them are a file of a few hundred kB, written
    /// after every item of the running one: more would make each save slow on an SD card.
    public static let keptStopped = 50

    /// The session that records items now.
    public var running: Entry?
    /// Stopped sessions, oldest first, at most ``keptStopped``.
    public private(set) var stopped: [Entry] = []

    public init(running: Entry? = nil, stopped: [Entry] = []) {
        self.running = running
        self.stopped = Array(stopped.suffix(Self.keptStopped))
    }

    /// Stops the running session at `timestamp` and keeps it, dropping the oldest beyond
    /// ``keptStopped``; the stopped entry, or nil when none ran.
    public mutating func stopRunning(at timestamp: String) -> Entry? {
        guard var entry = running else { return nil }
        entry.session.stop(at: timestamp)
        running = nil
        stopped.append(entry)
        if stopped.count > Self.keptStopped { stopped.removeFirst(stopped.count - Self.keptStopped) }
        return entry
    }

    /// The running or the latest stopped session called `name`.
    public func entry(named name: String) -> Entry? {
        if let running, running.session.name == name { return running }
        return stopped.last { $0.session.name == name }
    }
}

/// One checksummed JSON file, `sessions.json` in the state directory, holding the
/// ``SessionBook``, written as the zero and tare are (``ZeroTareStore``): the temporary file,
/// fsync, rename over the current one, fsync of the directory, so that a power cut at any
/// moment leaves the book as it was before an item or after it, never half of one.
public struct SessionStore: Sendable {
    public static let formatName = "plumscale-sessions"
    public static let schemaVersion = 1

    public let directory: String
    let files: any FileSteps

    public init(directory: String = CalibrationStore.defaultDirectory) {
        self.init(directory: directory, files: POSIXFileSteps())
    }

    init(directory: String, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
    }

    /// The on-disk form: `format`, `schemaVersion`, `checksum`, `payload`.
    struct File: Codable {
        var checksum: String
        var format: String
        var payload: SessionBook
        var schemaVersion: Int
    }

    /// The book's file.
    public var path: String { "\(directory)/sessions.json" }

    /// The saved book; an empty one when none was saved; or why the file cannot be used.
    public func load() -> Result<SessionBook, CalibrationStoreError> {
        let hint = "the file is left as it is; move it away to start with no sessions"
        let bytes: [UInt8]
        switch files.read(path) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: path, message: "cannot read: \(error.text)", errno: error.code, hint: hint))
        case .success(nil):
            return .success(SessionBook())
        case .success(let read?):
            bytes = read
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)), file.format == Self.formatName else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "not a valid sessions file (\(bytes.count) bytes)", hint: hint)
            )
        }
        guard file.schemaVersion == Self.schemaVersion else {
            return .failure(
                CalibrationStoreError(
                    code: .futureVersion, path: path,
                    message: "schema version \(file.schemaVersion) is not \(Self.schemaVersion)", hint: hint))
        }
        guard StoredJSON.payloadChecksum(bytes) == file.checksum else {
            return .failure(
                CalibrationStoreError(
                    code: .checksumMismatch, path: path,
                    message: "checksum \(file.checksum) does not match the contents", hint: hint))
        }
        return .success(file.payload)
    }

    /// Saves `book`, atomically.
    public func save(_ book: SessionBook) -> Result<Void, CalibrationStoreError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let file = File(
            checksum: StoredJSON.placeholder, format: Self.formatName, payload: book, schemaVersion: Self.schemaVersion)
        guard let encoded = try? encoder.encode(file), let bytes = StoredJSON.sealed(Array(encoded) + [0x0A]) else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "cannot encode the sessions",
                    hint: "the saved file is unchanged"))
        }
        let temporary = path + ".tmp"
        let steps: [(String, () -> Result<Void, FileErrno>)] = [
            ("writing \(temporary)", { files.write(temporary, bytes) }),
            ("syncing \(temporary)", { files.syncFile(temporary) }),
            ("renaming \(temporary) to \(path)", { files.rename(temporary, path) }),
            ("syncing directory \(directory)", { files.syncDirectory(directory) })
        ]
        for (what, step) in steps {
            if case .failure(let error) = step() {
                return .failure(
                    CalibrationStoreError(
                        code: .io, path: path, message: "\(what) failed: \(error.text)", errno: error.code,
                        hint: "check free space and permissions on \(directory); the saved sessions are unchanged"))
            }
        }
        return .success(())
    }
}
