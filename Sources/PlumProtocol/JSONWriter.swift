/// Writes one flat-or-nested JSON object with its keys in the order given.
///
/// Reports are encoded once per reading and the same bytes go to every client, so this stays
/// small and allocation-light; key order is fixed (`class` first, as gpsd does) so output diffs
/// cleanly and documentation examples match.
public struct JSONWriter: Sendable {
    private var text = "{"
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += Self.quote(name)
        text += ":"
    }

    public mutating func add(_ name: String, _ value: String) {
        key(name)
        text += Self.quote(value)
    }

    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    public mutating func add<I: BinaryInteger>(_ name: String, _ value: I) {
        key(name)
        text += String(value)
    }

    /// A number; NaN and infinities (which JSON cannot carry) become `null`.
    public mutating func add(_ name: String, _ value: Double) {
        key(name)
        text += value.isFinite ? Self.number(value) : "null"
    }

    public mutating func addNull(_ name: String) {
        key(name)
        text += "null"
    }

    public mutating func add(_ name: String, strings: [String]) {
        key(name)
        text += "[" + strings.map(Self.quote).joined(separator: ",") + "]"
    }

    /// An array of numbers; non-finite ones become `null`.
    public mutating func add(_ name: String, numbers: [Double]) {
        key(name)
        text += "[" + numbers.map { $0.isFinite ? Self.number($0) : "null" }.joined(separator: ",") + "]"
    }

    public mutating func add<I: BinaryInteger>(_ name: String, integers: [I]) {
        key(name)
        text += "[" + integers.map { String($0) }.joined(separator: ",") + "]"
    }

    /// A number, or `null` when absent.
    public mutating func add(_ name: String, optional value: Double?) {
        if let value { add(name, value) } else { addNull(name) }
    }

    public mutating func add(_ name: String, object: JSONWriter) {
        key(name)
        text += object.finished
    }

    public mutating func add(_ name: String, objects: [JSONWriter]) {
        key(name)
        text += "[" + objects.map(\.finished).joined(separator: ",") + "]"
    }

    /// The object's text, without a newline.
    public var finished: String { text + "}" }

    /// The object's text as one protocol line (with its newline).
    public var line: String { finished + "\n" }

    /// Shortest round-tripping text for a finite double; whole numbers without ".0".
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    public static func quote(_ text: String) -> String {
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
