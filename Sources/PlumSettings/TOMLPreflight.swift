package import TOMLKit

/// Finds the mistakes that the TOML parser inside TOMLKit 0.6.0 (toml++ 3.4) cannot take:
/// instead of a parse error, each fails one of toml++'s assertions and aborts the process.
/// Each was found by fuzzing (Tests/fuzz, target fuzz-config); each is refused here, with its
/// line, before toml++ sees the text.
///
/// - A table header whose name starts with a character no key can start with, such as `[)`,
///   fails `parse_key()`'s assertion.
/// - A `}` where an array expects a value, such as `weights = [1, }`, fails `parse_value()`'s.
/// - A number or date followed by one space, one digit and the end of the value, such as
///   `since = 2024-01-01 1`, fails the assertion in `parse_value()`'s scan: toml++ reads on
///   past the space, looking for a date-time's time, and finds the value's end instead.
///   Its scan of such a value stops only at blanks, `]`, `}`, `,` and `#`, so a quote inside
///   it (`06-d--!" 1 "`) hides the mistake from a lexer that sees a string there.
///
/// It is a small lexer, not a parser: it follows strings, comments and the brackets of
/// values only to know where a line really starts a table header and which bracket a `}`
/// would close, so that a `[` or `}` inside a string or a comment is never taken for one.
package enum TOMLPreflight {
    package struct Problem: Equatable {
        /// 1-based.
        package var line: Int
        package var message: String
    }

    static let badHeader =
        "a table header's name starts with a letter, a digit, '-', '_' or a quote, such as [scale] or [[sensor]]"
    static let braceInArray = "'}' inside an array, which ends with ']'; an inline table starts with '{'"
    static let strayDigit =
        "a value followed by a space and one digit, such as 2024-01-01 1; "
        + "a date-time's time is written in full (2024-01-01 07:30:00), and text goes in quotes"

    /// The first mistake toml++ would abort on, or nil.
    package static func firstProblem(in text: String) -> Problem? {
        let bytes = Array(text.utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0  // toml++ skips a byte-order mark
        var line = 1
        var lineStart = true  // only blanks so far on a line outside any value's brackets
        var headerLine = false
        var open: [UInt8] = []  // the open brackets and braces of values, innermost last
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func startsWith(_ quote: UInt8, count: Int) -> Bool { (0..<count).allSatisfy { at($0) == quote } }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                headerLine = false
                lineStart = open.isEmpty
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
                return Problem(line: line, message: badHeader)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                lineStart = false
                if !headerLine { open.append(byte) }
                index += 1
            case UInt8(ascii: "}") where !headerLine && open.last == UInt8(ascii: "["):
                return Problem(line: line, message: braceInArray)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                lineStart = false
                if !headerLine { _ = open.popLast() }
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                lineStart = false
                // toml++ scans a value that starts like a number up to its own terminators, which
                // are fewer than TOML's: a quote, '=' or '[' does not stop it. The check follows that
                // scan, so that `06-x!" 1 "` is seen as toml++ sees it, not as a number and a string.
                var scan = index
                while scan < bytes.count, !isValueTerminator(bytes[scan]) { scan += 1 }
                while let next = at(0), !endsBareValue(next) { index += 1 }
                // One space, one digit and an end after a value are never valid TOML, and are what
                // toml++ aborts on.
                if scan + 2 < bytes.count, bytes[scan] == UInt8(ascii: " "),
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[scan + 1]),
                    isValueTerminator(bytes[scan + 2]) || bytes[scan + 2] >= 0x80
                {
                    return Problem(line: line, message: strayDigit)
                }
            default:
                lineStart = false
                index += 1
            }
        }
        return nil
    }

    /// Ends a run of bare characters: blanks, line ends and TOML's punctuation.
    private static func endsBareValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x0B, 0x0C,
            UInt8(ascii: ","), UInt8(ascii: "#"), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    /// What ends toml++'s scan of a value (`is_value_terminator`): ASCII blanks and line ends,
    /// `]`, `}`, `,` and `#`. Its Unicode blanks are left to the caller, which treats every
    /// non-ASCII byte after the digit as a possible one.
    private static func isValueTerminator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A...0x0D,
            UInt8(ascii: ","), UInt8(ascii: "#"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
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

extension TOMLTable {
    /// The one way PlumScale's readers turn configuration text into a table: the pre-flight
    /// above first, then TOMLKit, every failure a `ConfigurationError` naming file and line.
    package static func parse(_ text: String, file: String) throws(ConfigurationError) -> TOMLTable {
        if let problem = TOMLPreflight.firstProblem(in: text) {
            throw ConfigurationError(
                file: file, line: problem.line, key: "", message: "not valid TOML: \(problem.message)")
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                file: file, line: error.source.begin.line, key: "",
                message: "not valid TOML: \(error.description) (column \(error.source.begin.column))")
        } catch {
            throw ConfigurationError(file: file, key: "", message: "not valid TOML: \(error)")
        }
    }
}
