internal import FoundationEssentials

/// The daemon's one file of settings made at runtime (``RuntimeSettings``), beside the
/// calibrations: `runtime-settings.json`, checksummed and written as they are, so a power cut
/// leaves the old settings or the new ones.
///
/// A save writes `runtime-settings.json.tmp`, fsyncs it, renames it over the file and fsyncs
/// the directory; a stale temporary file is removed at start with the others
/// (``CalibrationStore/removeStaleTemporaryFiles()``). A file that fails a check is not used:
/// the daemon starts with the configuration's values and an empty tare library, and says why.
package struct RuntimeSettingsStore: Sendable {
    package static let formatName = "plumscale-runtime-settings"
    package static let schemaVersion = 1
    package static let fileName = "runtime-settings.json"

    package let directory: String
    let files: any FileSteps

    package init(directory: String) { self.init(directory: directory, files: POSIXFileSteps()) }

    init(directory: String, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
    }

    /// The file's path.
    package var path: String { "\(directory)/\(Self.fileName)" }

    /// The on-disk form: `checksum`, `format`, `payload`, `schemaVersion`.
    struct File: Codable {
        var checksum: String
        var format: String
        var payload: RuntimeSettings
        var schemaVersion: Int
    }

    /// The saved settings (empty when none were saved), or why the file cannot be used.
    package func load() -> Result<RuntimeSettings, CalibrationStoreError> {
        let fresh = "the configuration's alert values are used and the tare library starts empty"
        let bytes: [UInt8]
        switch files.read(path) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: path, message: "cannot read: \(error.text)", errno: error.code, hint: fresh))
        case .success(nil):
            return .success(RuntimeSettings())
        case .success(let read?):
            bytes = read
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)), file.format == Self.formatName else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "not a valid runtime settings file (\(bytes.count) bytes)",
                    hint: fresh))
        }
        guard file.schemaVersion == Self.schemaVersion else {
            return .failure(
                CalibrationStoreError(
                    code: .futureVersion, path: path,
                    message: "schema version \(file.schemaVersion) is not \(Self.schemaVersion)", hint: fresh))
        }
        guard StoredJSON.payloadChecksum(bytes) == file.checksum else {
            return .failure(
                CalibrationStoreError(
                    code: .checksumMismatch, path: path,
                    message: "checksum \(file.checksum) does not match the contents", hint: fresh))
        }
        return .success(file.payload)
    }

    /// Saves `settings`, atomically.
    package func save(_ settings: RuntimeSettings) -> Result<Void, CalibrationStoreError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = File(
            checksum: StoredJSON.placeholder, format: Self.formatName, payload: settings,
            schemaVersion: Self.schemaVersion)
        guard let encoded = try? encoder.encode(file), let bytes = StoredJSON.sealed(Array(encoded) + [0x0A]) else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "cannot encode the runtime settings",
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
                        hint: "check free space and permissions on \(directory); the saved settings are unchanged"))
            }
        }
        return .success(())
    }
}
