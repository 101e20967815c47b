import PlumCore

internal import PlumSystem

/// One small checksummed JSON file per sensor holding its zero offset and tare, a
/// ``SealedFile`` like the other state files, so that a power cut at any moment leaves the old
/// values or the new ones.
///
/// Files in the directory, for sensor `left` at gain 128:
/// - `left-gain128.zero-tare.json`: the zero and tare last set, with their calibration;
/// - `left-gain128.zero-tare.json.tmp`: a save in progress; never read, removed at start by
///   ``CalibrationStore/removeStaleTemporaryFiles()``.
///
/// A file that fails any check is never used: the sensor starts with calibrated zero and no
/// tare, and ``load(_:)`` says why.
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
        self.init(directory: directory, files: SystemFileSteps())
    }

    init(directory: String, files: any FileSteps) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
    }

    /// The path of the sensor's zero and tare file.
    public func path(for sensor: SensorIdentity) -> String { file(sensor).path }

    func file(_ sensor: SensorIdentity) -> SealedFile<ZeroTareState> {
        SealedFile(
            format: Self.formatName, schemaVersion: Self.schemaVersion, contents: "zero and tare",
            directory: directory, name: "\(sensor.fileStem).zero-tare.json", sensor: sensor.fileStem, pretty: true,
            files: files)
    }

    /// The saved zero and tare, `nil` when none were saved, or why the file cannot be used.
    public func load(_ sensor: SensorIdentity) -> Result<ZeroTareState?, CalibrationStoreError> {
        let fresh = "the sensor starts from calibrated zero with no tare; zero and tare it again"
        if let refusal = Self.invalid(sensor, path(for: sensor)) { return .failure(refusal) }
        return file(sensor).load(hint: fresh).flatMap { state in
            guard let state, state.sensor != sensor.fileStem else { return .success(state) }
            return .failure(
                CalibrationStoreError(
                    code: .wrongSensor, path: path(for: sensor),
                    message: "the file belongs to sensor \(state.sensor), not \(sensor.fileStem)", hint: fresh))
        }
    }

    /// Saves `state` for its sensor, atomically.
    public func save(_ state: ZeroTareState, for sensor: SensorIdentity) -> Result<Void, CalibrationStoreError> {
        if let refusal = Self.invalid(sensor, path(for: sensor)) { return .failure(refusal) }
        guard state.sensor == sensor.fileStem else {
            return .failure(
                CalibrationStoreError(
                    code: .wrongSensor, path: path(for: sensor),
                    message: "the state is of sensor \(state.sensor), not \(sensor.fileStem)",
                    hint: "save each sensor's own state"))
        }
        return file(sensor).save(state, unchanged: "the saved zero and tare are unchanged")
    }

    /// Why `sensor` cannot name a file, or nil.
    private static func invalid(_ sensor: SensorIdentity, _ path: String) -> CalibrationStoreError? {
        guard case .failure(let refusal) = sensor.validate() else { return nil }
        return CalibrationStoreError(code: .invalidSensor, path: path, message: refusal.reason, hint: refusal.hint)
    }
}
