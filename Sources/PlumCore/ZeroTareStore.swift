internal import FoundationEssentials

/// One small checksummed JSON file per sensor holding its zero offset and tare, written as the
/// calibration is, so that a power cut at any moment leaves the old values or the new ones.
///
/// Files in the directory, for sensor `left` at gain 128:
/// - `left-gain128.zero-tare.json`: the zero and tare last set, with their calibration;
/// - `left-gain128.zero-tare.json.tmp`: a save in progress; never read, removed at start by
///   ``CalibrationStore/removeStaleTemporaryFiles()``.
///
/// A save writes the temporary file, fsyncs it, renames it over the current one and fsyncs
/// the directory. The checksum covers the payload's stored bytes (``StoredJSON``). A file that
/// fails any check is never used: the sensor starts with calibrated zero and no tare, and
/// ``load(_:)`` says why.
///
/// A daemon saves after every zero, tare, preset tare and clear (``WeighingEngine/zeroTareState``),
/// after the restore decision, and once zero-tracking has moved the zero by a division
/// (``WeighingEngine/zeroMovedSinceSave``; at most every other second, none while the zero
/// holds); at start it hands what ``load(_:)`` returns to ``WeighingEngine/restoreZeroTare(_:)``.
public struct ZeroTareStore: Sendable {
    public static let formatName = "plumscale-zero-tare"
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

    /// The on-disk form: `format`, `schemaVersion`, `sensor`, `checksum`, `payload`.
    struct File: Codable {
        var checksum: String
        var format: String
        var payload: ZeroTareState
        var schemaVersion: Int
        var sensor: String
    }

    /// The path of the sensor's zero and tare file.
    public func path(for sensor: SensorIdentity) -> String { "\(directory)/\(sensor.fileStem).zero-tare.json" }

    /// The saved zero and tare, `nil` when none were saved, or why the file cannot be used.
    public func load(_ sensor: SensorIdentity) -> Result<ZeroTareState?, CalibrationStoreError> {
        let path = path(for: sensor)
        let fresh = "the sensor starts from calibrated zero with no tare; zero and tare it again"
        if case .failure(let refusal) = sensor.validate() {
            return .failure(
                CalibrationStoreError(code: .invalidSensor, path: path, message: refusal.reason, hint: refusal.hint))
        }
        let bytes: [UInt8]
        switch files.read(path) {
        case .failure(let error):
            return .failure(
                CalibrationStoreError(
                    code: .io, path: path, message: "cannot read: \(error.text)", errno: error.code, hint: fresh))
        case .success(nil):
            return .success(nil)
        case .success(let read?):
            bytes = read
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)), file.format == Self.formatName else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "not a valid zero and tare file (\(bytes.count) bytes)",
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
        guard file.sensor == sensor.fileStem, file.payload.sensor == sensor.fileStem else {
            return .failure(
                CalibrationStoreError(
                    code: .wrongSensor, path: path,
                    message: "the file belongs to sensor \(file.sensor), not \(sensor.fileStem)", hint: fresh))
        }
        return .success(file.payload)
    }

    /// Saves `state` for its sensor, atomically.
    public func save(_ state: ZeroTareState, for sensor: SensorIdentity) -> Result<Void, CalibrationStoreError> {
        let path = path(for: sensor)
        if case .failure(let refusal) = sensor.validate() {
            return .failure(
                CalibrationStoreError(code: .invalidSensor, path: path, message: refusal.reason, hint: refusal.hint))
        }
        guard state.sensor == sensor.fileStem else {
            return .failure(
                CalibrationStoreError(
                    code: .wrongSensor, path: path,
                    message: "the state is of sensor \(state.sensor), not \(sensor.fileStem)",
                    hint: "save each sensor's own state"))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = File(
            checksum: StoredJSON.placeholder, format: Self.formatName, payload: state,
            schemaVersion: Self.schemaVersion, sensor: sensor.fileStem)
        guard let encoded = try? encoder.encode(file), let bytes = StoredJSON.sealed(Array(encoded) + [0x0A]) else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path,
                    message: "cannot encode zero \(state.zeroOffset) and tare \(state.tare)",
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
                        hint: "check free space and permissions on \(directory); the saved zero and tare are unchanged")
                )
            }
        }
        return .success(())
    }
}
