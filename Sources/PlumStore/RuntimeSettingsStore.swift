import PlumCore

internal import PlumSystem

/// The daemon's one file of settings made at runtime (``RuntimeSettings``), beside the
/// calibrations: `runtime-settings.json`, a ``SealedFile`` like the zero and tare, so a power
/// cut leaves the old settings or the new ones.
///
/// A stale temporary file is removed at start with the others
/// (``CalibrationStore/removeStaleTemporaryFiles()``). A file that fails a check is not used:
/// the daemon starts with the configuration's values and an empty tare library, and says why.
package struct RuntimeSettingsStore: Sendable {
    package static let formatName = "plumscale-runtime-settings"
    package static let schemaVersion = 1
    package static let fileName = "runtime-settings.json"

    package let directory: String
    let file: SealedFile<RuntimeSettings>

    package init(directory: String) { self.init(directory: directory, files: SystemFileSteps()) }

    init(directory: String, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        file = SealedFile(
            format: Self.formatName, schemaVersion: Self.schemaVersion, contents: "runtime settings",
            directory: self.directory, name: Self.fileName, sensor: nil, pretty: true, files: files)
    }

    /// The file's path.
    package var path: String { file.path }

    /// The saved settings (empty when none were saved), or why the file cannot be used.
    package func load() -> Result<RuntimeSettings, CalibrationStoreError> {
        let fresh = "the configuration's alert values are used and the tare library starts empty"
        return file.load(hint: fresh).map { $0 ?? RuntimeSettings() }
    }

    /// Saves `settings`, atomically.
    package func save(_ settings: RuntimeSettings) -> Result<Void, CalibrationStoreError> {
        file.save(settings, unchanged: "the saved settings are unchanged")
    }
}
