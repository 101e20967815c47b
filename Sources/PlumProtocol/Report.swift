import FoundationEssentials

/// One line the daemon sends, decoded: the client side of the protocol.
///
/// Clients ignore classes and fields they do not know (``unknown(_:)``), so a newer daemon that
/// adds a report or a field does not break an older client.
public enum Report: Hashable, Sendable {
    case version(VersionReport)
    case watch(WatchOptions)
    case weight(WeightReport)
    case poll(PollReport)
    case devices(DevicesReport)
    /// The answer to `?TARE` or `?ZERO`.
    case command(CommandReply)
    case calibrate(CalibrationReply)
    case cue(CueReport)
    case state(StateReport)
    /// The daemon dropped this many of the oldest reports queued for a slow client.
    case overflow(dropped: Int)
    case error(message: String)
    /// A class this client does not know, by name.
    case unknown(String)

    /// Decodes one JSON line.
    /// - Throws: ``ProtocolError`` when the line is not a JSON object with a `class`, or a
    ///   known class lacks a field it must have.
    public static func decode(_ line: Substring) throws(ProtocolError) -> Report {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        let kind: String
        do {
            kind = try decoder.decode(ClassField.self, from: data).class
        } catch {
            throw ProtocolError("not a report: a line from the daemon is a JSON object with a \"class\": \(line.prefix(80))")
        }
        do {
            switch kind {
            case "VERSION": return .version(try decoder.decode(VersionReport.self, from: data))
            case "WATCH": return .watch(try decoder.decode(WatchOptions.self, from: data))
            case "WEIGHT": return .weight(try decoder.decode(WeightReport.self, from: data))
            case "POLL": return .poll(try decoder.decode(PollReport.self, from: data))
            case "DEVICES": return .devices(try decoder.decode(DevicesReport.self, from: data))
            case "TARE", "ZERO": return .command(try decoder.decode(CommandReply.self, from: data))
            case "CALIBRATE": return .calibrate(try decoder.decode(CalibrationReply.self, from: data))
            case "CUE": return .cue(try decoder.decode(CueReport.self, from: data))
            case "STATE": return .state(try decoder.decode(StateReport.self, from: data))
            case "OVERFLOW": return .overflow(dropped: try decoder.decode(Overflow.self, from: data).dropped)
            case "ERROR": return .error(message: try decoder.decode(ErrorReport.self, from: data).message)
            default: return .unknown(kind)
            }
        } catch {
            throw ProtocolError("a \(kind) report this client cannot read (\(error)); is the daemon newer than the client?")
        }
    }

    private struct ClassField: Decodable { var `class`: String }
    private struct Overflow: Decodable { var dropped: Int }
    private struct ErrorReport: Decodable { var message: String }
}

/// The greeting: `{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":0}`.
public struct VersionReport: Hashable, Sendable, Decodable {
    public var release: String
    public var protoMajor: Int
    public var protoMinor: Int

    private enum CodingKeys: String, CodingKey {
        case release, protoMajor = "proto_major", protoMinor = "proto_minor"
    }
}

/// One reading of one sensor.
public struct WeightReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var time: Double
    /// Net grams at full resolution; nil while there is no valid reading.
    public var grams: Double?
    /// The value as the scale shows it, rounded to the division.
    public var display: String
    public var unit: String
    public var percent: Double?
    public var stable: Bool
    public var overload: Bool
    public var underload: Bool
    public var zero: Bool
    /// The tare in effect, in grams (0: none).
    public var tare: Double
    public var heaviest: Bool
    /// The ForceSketch hue in degrees (0 red, 120 green, 240 blue, 360 red at full scale).
    public var hue: Double
    /// The same colour as `#rrggbb`.
    public var rgb: String
    public var calibrated: Bool
    /// Why the sensor is not calibrated, when it is not.
    public var reason: String?
    /// The filtered raw signal the grams come from.
    public var signal: Double?
    /// The division (scale interval d) ``display`` is rounded to, in grams: 0.1, 0.2, 0.5, 1, 2, 5 …
    /// Older daemons do not send it; a client then reads the step from ``display``.
    public var division: Double?
}

/// The answer to `?POLL`.
public struct PollReport: Hashable, Sendable, Decodable {
    public var time: Double
    public var active: Int
    /// The combined load of all sensors; nil with ``totalReason`` when it cannot be given.
    public var total: Double?
    public var totalReason: String?
    public var weights: [WeightReport]

    private enum CodingKeys: String, CodingKey {
        case time, active, total, totalReason = "total_reason", weights
    }
}

/// The answer to `?DEVICES`.
public struct DevicesReport: Hashable, Sendable, Decodable {
    public var devices: [Device]

    public struct Device: Hashable, Sendable, Decodable {
        public var sensor: String
        public var index: Int
        public var kind: String
        public var wiring: String
        /// ok, settling, not-ready, fault or starting.
        public var state: String
        public var reason: String?
        public var rate: Double
        public var nominalRate: Double
        public var published: Int
        public var discarded: [String: Int]
        public var notReady: Int
        public var faults: Int
        public var notices: [String]
        public var calibrated: Bool
        public var calibrationDate: String?
        public var calibrationQuality: String?
        public var calibrationReason: String?
        /// Full scale in grams (100 % force); older daemons do not send it.
        public var capacity: Double?

        private enum CodingKeys: String, CodingKey {
            case sensor, index, kind, wiring, state, reason, rate, nominalRate = "nominal_rate", published, discarded
            case notReady = "not_ready", faults, notices, calibrated, calibrationDate = "calibration_date"
            case calibrationQuality = "calibration_quality", calibrationReason = "calibration_reason", capacity
        }
    }
}

/// The answer to `?TARE` or `?ZERO`.
public struct CommandReply: Hashable, Sendable, Decodable {
    /// "TARE" or "ZERO".
    public var command: String
    public var sensor: String
    public var ok: Bool
    /// The tare taken, for TARE.
    public var tare: Double?
    /// The zero offset applied, for ZERO.
    public var offset: Double?
    /// The engine's refusal code when not ok, such as "notStable" or "outsideZeroRange".
    public var reason: String?
    public var message: String?

    private enum CodingKeys: String, CodingKey {
        case command = "class", sensor, ok, tare, offset, reason, message
    }
}

/// The answer to one `?CALIBRATE` step.
public struct CalibrationReply: Hashable, Sendable, Decodable {
    public var sensor: String
    public var step: String
    public var ok: Bool
    /// Points captured so far.
    public var points: Int?
    public var message: String?
    /// For fit and commit: the known weights, their residuals in grams, the quality figure.
    public var grams: [Double]?
    public var residuals: [Double]?
    public var quality: String?
    public var notice: String?
    /// For commit: the file written; nil when saving failed (``message`` says why).
    public var saved: String?
}

/// A cue event: `max-force` when the load reaches full scale, `stable-weight` when enabled.
public struct CueReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var cue: String
    public var grams: Double?
}

/// A sensor's state changed: ok, settling, not-ready or fault, with the reason.
public struct StateReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var state: String
    public var reason: String?
}
