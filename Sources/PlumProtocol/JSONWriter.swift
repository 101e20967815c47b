/// Writes one flat-or-nested JSON object with its keys in the order given.
///
/// Reports are encoded once per reading and the same bytes go to every client, so this stays
/// small and allocation-light; key order is fixed (`class` first, as gpsd does) so output diffs
/// cleanly and documentation examples match.
public struct JSONWriter: Sendable {
    // Bytes, not a String: appending a few bytes to an array is a copy, where each `+=` on a
    // String re-checks and re-counts; a report is some sixty appends (docs/PERFORMANCE.md, 4).
    private var bytes: [UInt8]
    private var first = true

    public init() {
        // A WEIGHT report is about 400 bytes: one allocation instead of a few doublings.
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(512)
    }

    /// A key of an object. A literal in the source (`json.add("grams", …)`) is copied whole,
    /// as it was compiled: a key written in this package never needs an escape, and scanning
    /// the eighteen keys of each WEIGHT report for one cost a quarter of the report
    /// (docs/PERFORMANCE.md, 4). A name made at run time (``init(_:)``) is escaped as any
    /// string is.
    public struct Key: ExpressibleByStringLiteral, Sendable {
        fileprivate enum Name: Sendable {
            case literal(StaticString)
            case text(String)
        }

        fileprivate let name: Name

        public init(stringLiteral value: StaticString) {
            assert(
                value.withUTF8Buffer { !$0.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 } },
                "a literal JSON key needs no escape: \(value)")
            name = .literal(value)
        }

        /// A key known only at run time, such as a discard reason.
        public init(_ text: String) {
            name = .text(text)
        }
    }

    private mutating func key(_ key: Key) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        switch key.name {
        case .literal(let name):
            bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
        case .text(let name):
            Self.appendQuoted(name, to: &bytes)
        }
        bytes.append(UInt8(ascii: ":"))
    }

    /// `true`, `false` or `null`: bytes fixed when the program is compiled.
    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func add(_ name: Key, _ value: String) {
        key(name)
        Self.appendQuoted(value, to: &bytes)
    }

    public mutating func add(_ name: Key, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    public mutating func add<I: BinaryInteger>(_ name: Key, _ value: I) {
        key(name)
        DecimalText.appendInteger(value, to: &bytes)
    }

    /// A number; NaN and infinities (which JSON cannot carry) become `null`.
    public mutating func add(_ name: Key, _ value: Double) {
        key(name)
        appendNumber(value)
    }

    /// A quantity on a fixed grid of `decimals` places (0 to 9): the same text as
    /// ``add(_:_:)-(_,Double)`` gives ``DecimalText/onGrid(_:decimals:)`` of it (the value
    /// rounded to the grid, or past 2^50 units the value itself), written without printing a
    /// double (see ``DecimalText/appendFixed(_:decimals:to:)``). NaN and infinities become `null`.
    public mutating func add(_ name: Key, _ value: Double, decimals: Int) {
        key(name)
        if value.isFinite {
            DecimalText.appendFixed(value, decimals: decimals, to: &bytes)
        } else {
            raw("null")
        }
    }

    /// `units × 10^-decimals` (0 to 9 decimals): a quantity kept as a whole number of its
    /// smallest step, such as a time in microseconds, written exactly as ``add(_:_:)-(_,Double)``
    /// writes the double nearest to it.
    public mutating func add(_ name: Key, units: Int64, decimals: Int) {
        key(name)
        DecimalText.appendFixed(units: units, decimals: decimals, to: &bytes)
    }

    /// A quantity on a fixed grid, or `null` when absent.
    public mutating func add(_ name: Key, optional value: Double?, decimals: Int) {
        if let value { add(name, value, decimals: decimals) } else { addNull(name) }
    }

    public mutating func addNull(_ name: Key) {
        key(name)
        raw("null")
    }

    public mutating func add(_ name: Key, strings: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(string, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of numbers; non-finite ones become `null`.
    public mutating func add(_ name: Key, numbers: [Double]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendNumber(number)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of quantities on a grid of `decimals` places (0 to 9), each written as
    /// ``add(_:_:decimals:)`` writes one; non-finite ones become `null`.
    public mutating func add(_ name: Key, numbers: [Double], decimals: Int) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if number.isFinite {
                DecimalText.appendFixed(number, decimals: decimals, to: &bytes)
            } else {
                raw("null")
            }
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func add<I: BinaryInteger>(_ name: Key, integers: [I]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, integer) in integers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            DecimalText.appendInteger(integer, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A number, or `null` when absent.
    public mutating func add(_ name: Key, optional value: Double?) {
        if let value { add(name, value) } else { addNull(name) }
    }

    public mutating func add(_ name: Key, object: JSONWriter) {
        key(name)
        bytes.append(contentsOf: object.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func add(_ name: Key, objects: [JSONWriter]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: object.bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The object's text, without a newline.
    public var finished: String { text(newline: false) }

    /// The object's text as one protocol line (with its newline).
    public var line: String { text(newline: true) }

    /// The bytes and the closing brace copied once into the string's own storage, with no
    /// array in between.
    private func text(newline: Bool) -> String {
        let count = bytes.count + (newline ? 2 : 1)
        return String(unsafeUninitializedCapacity: count) { buffer in
            let end = buffer.initialize(fromContentsOf: bytes)
            buffer[end] = UInt8(ascii: "}")
            if newline { buffer[end + 1] = UInt8(ascii: "\n") }
            return count
        }
    }

    /// A finite double as ``number(_:)`` writes it, `null` otherwise; whole numbers go digit by
    /// digit.
    private mutating func appendNumber(_ value: Double) {
        if !value.isFinite {
            raw("null")
        } else if value == value.rounded(), abs(value) < 1e15 {
            DecimalText.appendInteger(Int64(value), to: &bytes)
        } else {
            bytes.append(contentsOf: "\(value)".utf8)
        }
    }

    /// Shortest round-tripping text for a finite double; whole numbers without ".0".
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    public static func quote(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string. Keys and most values need no escape and are copied
    /// whole; a quote, a backslash or a control character is escaped.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Byte by byte, a report's twenty keys and four strings were a third of its cost
        // (docs/PERFORMANCE.md, 4): a string with nothing to escape goes in one copy.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else {
                return false
            }
            out.append(contentsOf: utf8)
            return true
        }
        if copied != true { appendEscaped(text, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the bytes of `text` with quotes, backslashes and control characters escaped.
    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default:
                // UTF-8 bytes of other characters pass through unchanged, as JSON allows.
                out.append(byte)
            }
        }
    }
}
