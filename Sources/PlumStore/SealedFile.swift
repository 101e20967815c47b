internal import FoundationEssentials
import PlumCore

internal import PlumSystem

/// One checksummed JSON file in the state directory, read and written the one way every store
/// of small state does it (``ZeroTareStore``, ``SessionStore``, ``RuntimeSettingsStore``, and
/// the station's run record), so that a crash or a power cut at any moment leaves the old
/// contents or the new ones.
///
/// On disk, keys sorted:
/// ```json
/// { "checksum": "crc32:…", "format": "plumscale-…", "payload": {…}, "schemaVersion": 1,
///   "sensor": "left-gain128" }
/// ```
/// `sensor` only in a sensor's own file. The checksum covers the payload's stored bytes
/// (``StoredJSON``). A save writes `PATH.tmp`, fsyncs it, renames it over `PATH` and fsyncs the
/// directory; a temporary file a crash left is removed at start
/// (``CalibrationStore/removeStaleTemporaryFiles()``). A file that fails a check (empty, not
/// JSON, another format, a newer schema, a field missing, a changed byte, another sensor's) is
/// never used, and the error says which check and what happens instead.
package struct SealedFile<Content: Codable>: Sendable {
    /// Every store reports as the calibration store always has, so callers handle one error type.
    package typealias StoreError = CalibrationStoreError

    /// The file's `format`, which tells it from any other JSON file.
    let format: String
    /// The schema this code writes and reads.
    let schemaVersion: Int
    /// What the file holds, for messages: "zero and tare", "sessions".
    let contents: String
    /// The state directory, whose fsync makes a rename in it durable.
    let directory: String
    /// The file's name in ``directory``.
    let name: String
    /// The sensor a sensor's own file belongs to, written as `sensor` and checked on load.
    let sensor: String?
    /// Indented for people to read; the sessions file, written after every item, is not.
    let pretty: Bool
    let files: any FileSteps

    package var path: String { "\(directory)/\(name)" }

    /// A state file is a few kilobytes; a store refuses to swallow something enormous.
    static var sizeLimit: Int { 16 * 1024 * 1024 }

    /// The whole file as encoded; keys are sorted by the encoder, so declaration order is free.
    struct Envelope: Codable {
        var checksum: String
        var format: String
        var payload: Content
        var schemaVersion: Int
        var sensor: String?
    }

    /// Only what decides whether the rest can be read.
    private struct Header: Decodable {
        var format: String?
        var schemaVersion: Int?
    }

    /// The contents, `nil` when there is no file, or why the file cannot be used.
    /// - Parameter hint: what happens instead, ending every error.
    package func load(hint: String) -> Result<Content?, CalibrationStoreError> {
        let failure = { (code: CalibrationStoreError.Code, message: String) in
            Result<Content?, CalibrationStoreError>.failure(
                CalibrationStoreError(code: code, path: path, message: message, hint: hint))
        }
        let bytes: [UInt8]
        switch files.read(path, limit: Self.sizeLimit) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: path, message: "cannot read: \(error)", errno: error.rawValue, hint: hint))
        case .success(nil): return .success(nil)
        case .success(let read?): bytes = read
        }
        let data = Data(bytes)
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            return failure(
                .corrupt,
                bytes.isEmpty
                    ? "not a valid \(contents) file: it is empty"
                    : "not a valid \(contents) file: not a JSON object (truncated or damaged, \(bytes.count) bytes)")
        }
        guard header.format == format, let version = header.schemaVersion else {
            let found = header.format.map { "a \"\($0)\" file" } ?? "a JSON file without a format"
            return failure(.corrupt, "not a valid \(contents) file: \(found), not \"\(format)\"")
        }
        guard version == schemaVersion else {
            let newer = version > schemaVersion ? " (a newer PlumScale wrote it; update to read it)" : ""
            return failure(.futureVersion, "schema version \(version) is not \(schemaVersion)\(newer)")
        }
        let file: Envelope
        do {
            file = try JSONDecoder().decode(Envelope.self, from: data)
        } catch {
            return failure(
                .corrupt, "not a valid \(contents) file: a field is missing or has the wrong type (\(error))")
        }
        guard StoredJSON.payloadChecksum(bytes) == file.checksum else {
            return failure(.checksumMismatch, "checksum \(file.checksum) does not match the contents")
        }
        guard file.sensor == sensor else {
            return failure(.wrongSensor, "the file belongs to sensor \(file.sensor ?? "none"), not \(sensor ?? "none")")
        }
        return .success(file.payload)
    }

    /// Writes `content` atomically: the old file stays whole until the rename, which is atomic.
    /// - Parameters:
    ///   - keepPrevious: keep the current file as `PATH.prev` first (``commit(_:keepPrevious:unchanged:)``).
    ///   - unchanged: what a failed step leaves as it was ("the saved sessions are unchanged").
    package func save(_ content: Content, keepPrevious: Bool = false, unchanged: String) -> Result<Void, StoreError> {
        var formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { formatting.insert(.prettyPrinted) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        let file = Envelope(
            checksum: StoredJSON.placeholder, format: format, payload: content, schemaVersion: schemaVersion,
            sensor: sensor)
        let encoded: Data
        do {
            encoded = try encoder.encode(file)
        } catch {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "cannot encode the \(contents) (\(error))",
                    hint: "the saved file is unchanged"))
        }
        guard let bytes = StoredJSON.sealed(Array(encoded) + [0x0A]) else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "cannot seal the \(contents): no payload to checksum",
                    hint: "the saved file is unchanged"))
        }
        return commit(bytes, keepPrevious: keepPrevious, unchanged: unchanged)
    }

    /// The durable replacement of ``path`` by `bytes` (PlumSystem's ``DurableFile``). With
    /// `keepPrevious`, the current file is first kept as `PATH.prev`: the calibration keeps one
    /// to recover from.
    func commit(_ bytes: [UInt8], keepPrevious: Bool, unchanged: String) -> Result<Void, StoreError> {
        DurableFile(path: path, steps: files).replace(with: bytes, keepPrevious: keepPrevious).mapError { failure in
            let left = failure.replaced ? "the new file is in place but may not survive a power cut" : unchanged
            return CalibrationStoreError(
                code: .io, path: path, message: "\(failure.step) failed: \(failure.errno)",
                errno: failure.errno.rawValue, hint: Self.hint(for: failure.errno, directory: directory) + "; \(left)")
        }
    }

    /// What to do about a failed step: a full disk says so, naming where to free space;
    /// anything else may be space or permissions.
    static func hint(for error: Errno, directory: String) -> String {
        error.isNoSpace
            ? "the file system holding \(directory) is full: free some space there"
            : "check free space and permissions on \(directory)"
    }
}

extension SealedFile {
    /// A file of the whole state directory (no `sensor`) written through the POSIX calls, for
    /// modules outside PlumCore that keep their own small state beside the calibrations.
    package init(format: String, schemaVersion: Int, contents: String, directory: String, name: String, pretty: Bool) {
        self.init(
            format: format, schemaVersion: schemaVersion, contents: contents, directory: directory, name: name,
            sensor: nil, pretty: pretty, files: SystemFileSteps())
    }
}
