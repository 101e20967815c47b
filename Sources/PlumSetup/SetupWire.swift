import Foundation

/// A JSON value as `plumscale setup --serve` reads and writes it: decoded strictly, so that
/// `true` is never taken for 1 nor a number for a string, and encoded with sorted keys.
///
/// The setup socket's wire format has this one owner; plumscale-web only relays its lines.
enum SetupWire: Codable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([SetupWire])
    case object([String: SetupWire])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([SetupWire].self) {
            self = .list(items)
        } else {
            self = .object(try container.decode([String: SetupWire].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .int(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .list(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        case .null: try container.encodeNil()
        }
    }

    /// Any Encodable value (a probe's report) as a wire value.
    static func from(_ value: some Encodable) throws -> SetupWire {
        try JSONDecoder().decode(SetupWire.self, from: JSONEncoder().encode(value))
    }

    /// One line of JSON: keys sorted, no newline inside (JSON escapes those in strings).
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data =
            (try? encoder.encode(self)) ?? Data("{\"ok\":false,\"error\":\"the reply could not be encoded\"}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The value a configuration key takes from it; nil for an object or null.
    var answer: AnswerValue? {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .list(let items):
            items.allSatisfy { if case .list = $0 { false } else { $0.answer != nil } }
                ? .list(items.compactMap(\.answer)) : nil
        case .object, .null: nil
        }
    }

    init(_ answer: AnswerValue) {
        switch answer {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .bool(flag)
        case .list(let items): self = .list(items.map(SetupWire.init))
        }
    }

    /// A sensor as the protocol shows it: `{"name": …, "kind": …, key: value, …}`, the keys
    /// of its `[[sensor]]` table.
    init(_ sensor: SetupAnswers.Sensor) {
        var members: [String: SetupWire] = ["name": .string(sensor.name), "kind": .string(sensor.kind.rawValue)]
        for entry in sensor.keys { members[entry.key] = SetupWire(entry.value) }
        self = .object(members)
    }
}
