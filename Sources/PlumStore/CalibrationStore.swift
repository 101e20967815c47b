import PlumCore

internal import PlumSystem

/// One versioned, checksummed JSON file per sensor and gain, written so that a crash or a
/// power cut at any moment leaves the old calibration or the new one, never a broken one.
///
/// Files in the directory, for sensor `left` at gain 128:
/// - `left-gain128.json`: the calibration in use and up to ``historyLimit`` earlier ones;
/// - `left-gain128.json.prev`: the file as it was before the last save (a second copy to
///   recover from if the current file is ever damaged);
/// - `left-gain128.json.tmp`: a save in progress; never read, and removed at start by
///   ``removeStaleTemporaryFiles()`` if a crash left it.
///
/// A save writes the temporary file, fsyncs it, keeps the old file as `.prev` (link and
/// rename), renames the temporary file over the current one and fsyncs the directory. Every
/// step leaves a complete current file in place.
public struct CalibrationStore: Sendable {
    /// Where the daemon keeps state (systemd `StateDirectory=plumscale`).
    public static let defaultDirectory = "/var/lib/plumscale"

    public let directory: String
    /// Earlier calibrations kept for rollback.
    public let historyLimit: Int
    let files: any FileSteps

    public init(directory: String = CalibrationStore.defaultDirectory, historyLimit: Int = 5) {
        self.init(directory: directory, historyLimit: historyLimit, files: SystemFileSteps())
    }

    init(directory: String, historyLimit: Int, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.historyLimit = max(0, historyLimit)
        self.files = files
    }

    /// Removes the temporary files a save interrupted by a crash or power cut left behind:
    /// `*.json.tmp` and `*.json.prev.tmp`, of calibrations and of ``ZeroTareStore``. Call it
    /// once at start, before anything saves; no other file is touched.
    ///
    /// - Returns: the names removed.
    public func removeStaleTemporaryFiles() -> Result<[String], CalibrationStoreError> {
        switch files.list(directory) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: directory, message: "cannot list: \(error)", errno: error.rawValue,
                    hint: "check that the daemon may read \(directory)"))
        case .success(let names):
            var removed: [String] = []
            for name in names.sorted() where name.hasSuffix(".json.tmp") || name.hasSuffix(".json.prev.tmp") {
                if case .failure(let error) = files.remove("\(directory)/\(name)") {
                    return .failure(
                        CalibrationStoreError(
                            code: .io, path: "\(directory)/\(name)",
                            message: "cannot remove a stale temporary file: \(error)",
                            errno: error.rawValue, hint: "check permissions on \(directory)"))
                }
                removed.append(name)
            }
            return .success(removed)
        }
    }

    /// The path of the sensor's calibration file.
    public func path(for sensor: SensorIdentity) -> String { "\(directory)/\(sensor.fileStem).json" }

    /// The calibration in use for `sensor`, `nil` when it was never calibrated, or an error
    /// naming the file and how to recover. A damaged file is never used.
    public func load(_ sensor: SensorIdentity) -> Result<Calibration?, CalibrationStoreError> {
        loadFile(sensor).map { $0?.payload.current }
    }

    /// The calibration in use and the earlier ones, newest first.
    public func loadAll(_ sensor: SensorIdentity) -> Result<[Calibration], CalibrationStoreError> {
        loadFile(sensor).map { file in file.map { [$0.payload.current] + $0.payload.history } ?? [] }
    }

    /// Saves `calibration` as the one in use; the previous one moves into the history.
    public func save(_ calibration: Calibration) -> Result<Void, CalibrationStoreError> {
        let sensor = calibration.sensor
        var history: [Calibration] = []
        var currentIsSound = false
        switch loadFile(sensor) {
        case .success(let file?):
            history = [file.payload.current] + file.payload.history
            currentIsSound = true
        case .success(nil):
            break
        case .failure(let error) where error.code == .io || error.code == .invalidSensor:
            return .failure(error)
        case .failure:
            // The current file is damaged: keep the last sound copy's history instead, and do
            // not let the damaged file replace that copy.
            if case .success(let previous?) = loadFile(sensor, suffix: ".prev") {
                history = [previous.payload.current] + previous.payload.history
            }
        }
        let payload = CalibrationFile.Payload(current: calibration, history: Array(history.prefix(historyLimit)))
        return write(payload, for: sensor, keepPrevious: currentIsSound)
    }

    /// Makes the previous calibration the one in use again.
    ///
    /// When the current file is damaged, restores the copy kept as `.prev` instead.
    /// - Returns: the calibration now in use.
    public func rollback(_ sensor: SensorIdentity) -> Result<Calibration, CalibrationStoreError> {
        let path = path(for: sensor)
        switch loadFile(sensor) {
        case .success(let file?):
            guard let previous = file.payload.history.first else {
                return .failure(
                    CalibrationStoreError(
                        code: .noHistory, path: path, message: "there is no earlier calibration to roll back to",
                        hint: "recalibrate with known weights"))
            }
            let payload = CalibrationFile.Payload(current: previous, history: Array(file.payload.history.dropFirst()))
            return write(payload, for: sensor, keepPrevious: true).map { previous }
        case .success(nil):
            return .failure(
                CalibrationStoreError(
                    code: .noHistory, path: path, message: "the sensor was never calibrated",
                    hint: "calibrate with known weights"))
        case .failure(let error) where error.code == .io || error.code == .invalidSensor:
            return .failure(error)
        case .failure(let damage):
            switch loadFile(sensor, suffix: ".prev") {
            case .success(let copy?):
                return write(copy.payload, for: sensor, keepPrevious: false).map { copy.payload.current }
            default:
                return .failure(
                    CalibrationStoreError(
                        code: .noHistory, path: path,
                        message: "\(damage.message), and no sound earlier copy (\(path).prev) exists",
                        hint: "move the damaged file aside and recalibrate"))
            }
        }
    }

    private func loadFile(_ sensor: SensorIdentity, suffix: String = "") -> Result<
        CalibrationFile?, CalibrationStoreError
    > {
        let path = path(for: sensor) + suffix
        if case .failure(let refusal) = sensor.validate() {
            return .failure(
                CalibrationStoreError(code: .invalidSensor, path: path, message: refusal.reason, hint: refusal.hint))
        }
        switch files.read(path, limit: SealedFile<CalibrationFile.Payload>.sizeLimit) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: path, message: "cannot read: \(error)", errno: error.rawValue,
                    hint: "check that the daemon may read \(directory)"))
        case .success(nil):
            return .success(nil)
        case .success(let bytes?):
            return CalibrationFile.decode(bytes, path: path, expectedSensor: sensor.fileStem).map { $0 }
        }
    }

    private func write(_ payload: CalibrationFile.Payload, for sensor: SensorIdentity, keepPrevious: Bool) -> Result<
        Void, CalibrationStoreError
    > {
        let path = path(for: sensor)
        if case .failure(let refusal) = sensor.validate() {
            return .failure(
                CalibrationStoreError(code: .invalidSensor, path: path, message: refusal.reason, hint: refusal.hint))
        }
        let file = SealedFile<CalibrationFile.Payload>(
            format: CalibrationFile.formatName, schemaVersion: CalibrationFile.schemaVersion, contents: "calibration",
            directory: directory, name: "\(sensor.fileStem).json", sensor: sensor.fileStem, pretty: true, files: files)
        return file.save(payload, keepPrevious: keepPrevious, unchanged: "the calibration in use is unchanged")
    }
}
