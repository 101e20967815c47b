/// Finds the table headers that the TOML parser inside TOMLKit 0.6.0 (toml++ 3.4) cannot
/// take: one whose name starts with a character no key can start with, such as `[)`, fails
/// toml++'s `parse_key()` assertion and aborts the process instead of giving a parse error.
/// Found by fuzzing; such a header is refused here, with its line, before toml++ sees it.
///
/// It is a small lexer, not a parser: it follows strings, comments and the brackets of
/// values only to know where a line really starts a table header, so that a `[` inside a
/// string or a multi-line array is never taken for one.
enum TOMLHeaderCheck {
    /// The 1-based line of the first table header whose name cannot start a key, or nil.
    static func firstUnsafeHeader(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        var lineStart = true  // only blanks so far on a line outside any value's brackets
        var headerLine = false
        var depth = 0  // open brackets and braces of values
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func startsWith(_ quote: UInt8, count: Int) -> Bool { (0..<count).allSatisfy { at($0) == quote } }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                headerLine = false
                lineStart = depth == 0
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "#"):
                while let next = at(0), next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                lineStart = false
                let multiLine = startsWith(byte, count: 3)
                index += multiLine ? 3 : 1
                while let next = at(0) {
                    if next == UInt8(ascii: "\\") && byte == UInt8(ascii: "\"") {
                        if at(1) == UInt8(ascii: "\n") { line += 1 }
                        index += 2
                    } else if next == byte && (!multiLine || startsWith(byte, count: 3)) {
                        index += multiLine ? 3 : 1
                        while multiLine, at(0) == byte { index += 1 }  // """"" ends with quotes in it
                        break
                    } else if next == UInt8(ascii: "\n") {
                        if !multiLine { break }  // an unclosed string: toml++ refuses it
                        line += 1
                        index += 1
                    } else {
                        index += 1
                    }
                }
            case UInt8(ascii: "[") where lineStart:
                lineStart = false
                headerLine = true
                index += 1
                let blank = skipBlanks(bytes, &index)
                if at(0) == UInt8(ascii: "[") {
                    if blank { continue }  // "[ [": toml++ refuses it before reading a key
                    index += 1
                    _ = skipBlanks(bytes, &index)
                }
                guard let first = at(0), !canStartHeaderName(first) else { continue }
                return line
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                lineStart = false
                if !headerLine { depth += 1 }
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                lineStart = false
                if !headerLine { depth = max(0, depth - 1) }
                index += 1
            default:
                lineStart = false
                index += 1
            }
        }
        return nil
    }

    /// Skips spaces and tabs; true when there were any.
    private static func skipBlanks(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index > start
    }

    /// A bare key's character (letters, digits, `-`, `_`), a quote, or the `]` of an empty
    /// name, which toml++ refuses by itself.
    private static func canStartHeaderName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
