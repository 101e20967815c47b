/// A tiny writer for one JSON object per line, in a fixed key order so output diffs cleanly.
///
/// The CLI's output is small and flat; a full encoder would only reorder keys.
struct JSONLine {
    private var parts: [String] = []

    mutating func add(_ key: String, _ value: String) { parts.append("\(Self.quote(key)):\(Self.quote(value))") }
    mutating func add(_ key: String, _ value: Int64) { parts.append("\(Self.quote(key)):\(value)") }
    mutating func add(_ key: String, _ value: UInt64) { parts.append("\(Self.quote(key)):\(value)") }
    mutating func add(_ key: String, _ value: Double) {
        parts.append("\(Self.quote(key)):\(value.isFinite ? "\(value)" : "null")")
    }
    mutating func add(_ key: String, _ values: [String]) {
        parts.append("\(Self.quote(key)):[\(values.map(Self.quote).joined(separator: ","))]")
    }
    mutating func add(_ key: String, object: JSONLine) { parts.append("\(Self.quote(key)):\(object.text)") }

    var text: String { "{" + parts.joined(separator: ",") + "}" }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
