internal import FoundationEssentials

import PlumCore

/// The on-disk form of one sensor's calibrations: the one in use and the ones before it.
///
/// ```json
/// { "format": "plumscale-calibration", "schemaVersion": 1, "sensor": "left-gain128",
///   "checksum": "crc32:…", "payload": { "current": {…}, "history": [{…}] } }
/// ```
/// The checksum is CRC-32 over the payload's bytes as stored, without the whitespace between
/// tokens (``StoredJSON``): a re-indented file still verifies, any changed character does not,
/// and how a toolchain prints numbers never matters, because nothing is re-encoded to check.
public struct CalibrationFile: Hashable, Sendable, Codable {
    /// The schema this code writes and the newest it reads.
    public static let schemaVersion = 1
    public static let formatName = "plumscale-calibration"

    public struct Payload: Hashable, Sendable, Codable {
        /// The calibration in use.
        public var current: Calibration
        /// Earlier calibrations, newest first, for rollback.
        public var history: [Calibration]

        public init(current: Calibration, history: [Calibration]) {
            self.current = current
            self.history = history
        }
    }

    public var format: String
    public var schemaVersion: Int
    /// The sensor's file stem, checked against the file name on load.
    public var sensor: String
    public var checksum: String
    public var payload: Payload

    /// A file for `payload` with its checksum computed.
    public init(payload: Payload) throws {
        self.format = Self.formatName
        self.schemaVersion = Self.schemaVersion
        self.sensor = payload.current.sensor.fileStem
        self.payload = payload
        self.checksum = StoredJSON.placeholder
        // The checksum covers the bytes this file will be written as, so encode it to see them.
        guard let label = StoredJSON.payloadChecksum(try encoded()) else {
            throw EncodingError.invalidValue(
                payload, .init(codingPath: [], debugDescription: "no payload in the encoded file"))
        }
        self.checksum = label
    }

    /// The bytes written to disk: pretty-printed for people, keys sorted for diffs.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// Only the fields needed to decide whether the rest can be read.
    struct Header: Decodable {
        var format: String?
        var schemaVersion: Int?
    }

    /// Parses and verifies a file's bytes.
    ///
    /// - Parameters:
    ///   - path: named in errors.
    ///   - expectedSensor: the file stem the file must belong to.
    static func decode(_ bytes: [UInt8], path: String, expectedSensor: String) -> Result<
        CalibrationFile, CalibrationStoreError
    > {
        let recover =
            "roll back to the previous calibration (plumscale calibrate --rollback) or recalibrate; the sensor runs "
            + "uncalibrated until then"
        let data = Data(bytes)
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path,
                    message: bytes.isEmpty
                        ? "the file is empty"
                        : "the file is not valid JSON (truncated or damaged, \(bytes.count) bytes)",
                    hint: recover))
        }
        guard header.format == formatName, let version = header.schemaVersion else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "not a PlumScale calibration file", hint: recover))
        }
        guard version <= schemaVersion else {
            return .failure(
                CalibrationStoreError(
                    code: .futureVersion, path: path,
                    message: "schema version \(version) is newer than this PlumScale reads (\(schemaVersion))",
                    hint: "update PlumScale, or move the file aside and recalibrate"))
        }
        guard version >= 1 else {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "schema version \(version) is not valid", hint: recover))
        }
        let file: CalibrationFile
        do {
            file = try JSONDecoder().decode(CalibrationFile.self, from: data)
        } catch {
            return .failure(
                CalibrationStoreError(
                    code: .corrupt, path: path, message: "a field is missing or has the wrong type (\(error))",
                    hint: recover))
        }
        guard let computed = StoredJSON.payloadChecksum(bytes), computed == file.checksum else {
            return .failure(
                CalibrationStoreError(
                    code: .checksumMismatch, path: path,
                    message: "checksum \(file.checksum) does not match the contents: the file was damaged or edited",
                    hint: recover))
        }
        guard file.sensor == expectedSensor, file.payload.current.sensor.fileStem == expectedSensor else {
            return .failure(
                CalibrationStoreError(
                    code: .wrongSensor, path: path,
                    message: "the file belongs to sensor \(file.sensor), not \(expectedSensor)",
                    hint: "move it back to \(file.sensor).json, or recalibrate \(expectedSensor)"))
        }
        return .success(file)
    }
}
