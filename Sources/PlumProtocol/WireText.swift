/// Text from the wire that someone will see on a terminal: which characters it may not carry,
/// and how a program prints what arrived anyway.
///
/// A name, a version or a detail one client sends is printed by another (`plumscale status`
/// shows every service's; `session list` every session's name), often by an administrator.
/// An escape sequence in it could clear that screen, set the terminal's title or make one
/// name look like another; a bidi override could reverse what follows it. The daemon refuses
/// such text where it keeps it (``problem(in:field:limit:)``), and the CLI escapes whatever is
/// not printable before printing it (``escaped(_:)``), so an older daemon or a file cannot
/// slip one past either.
public enum WireText {
    /// Whether `scalar` is one the daemon refuses in text it keeps and the CLI escapes:
    /// - C0 controls (U+0000–U+001F: escape, bell, backspace, carriage return, newline, tab) and
    ///   DEL (U+007F);
    /// - C1 controls (U+0080–U+009F: U+009B is a one-character CSI on some terminals);
    /// - bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder
    ///   what follows them;
    /// - the line and paragraph separators (U+2028, U+2029).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// What is wrong with `text` as the value of `field`, or nil: an unsafe character (named by
    /// its code point and position), or more than `limit` bytes of UTF-8.
    public static func problem(in text: String, field: String, limit: Int) -> String? {
        if text.utf8.count > limit {
            return "\"\(field)\" is \(text.utf8.count) bytes of UTF-8; at most \(limit) are kept"
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() where isUnsafe(scalar) {
            return "\"\(field)\" holds \(code(scalar)) (\(kind(scalar))) at character \(offset + 1); text "
                + "from a client is printed on others' terminals, so it may not hold control characters "
                + "or bidi overrides"
        }
        return nil
    }

    /// `text` with every unsafe character but newline and tab written as `\uXXXX`, which reads
    /// plainly on a terminal and is the same character again inside a JSON string (where a raw
    /// control character may not be). Escaping twice changes nothing more.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar), scalar != "\n", scalar != "\t" {
                out.append(contentsOf: code(scalar, prefix: "\\u").unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `U+001B`, or with `prefix` `\u001b`-style as JSON writes it.
    static func code(_ scalar: Unicode.Scalar, prefix: String = "U+") -> String {
        let hex = String(scalar.value, radix: 16, uppercase: prefix == "U+")
        return prefix + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func kind(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: "escape"
        case 0x0A, 0x0D, 0x2028, 0x2029: "a line break"
        case 0x00...0x1F, 0x7F: "a control character"
        case 0x80...0x9F: "a C1 control character"
        default: "a bidi control"
        }
    }
}
