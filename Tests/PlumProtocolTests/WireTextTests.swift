import FoundationEssentials
import Testing

@testable import PlumProtocol

/// Text from one client that another prints: which characters are refused, and how the CLI
/// escapes what arrives anyway.
@Suite("text from the wire: refused controls and escaped output")
struct WireTextTests {
    @Test(
        "every C0 and C1 control, DEL, bidi control and line separator is unsafe; letters, accents and emoji are not",
        arguments: [
            (0x00, true), (0x07, true), (0x09, true), (0x0A, true), (0x0D, true), (0x1B, true), (0x1F, true),
            (0x7F, true), (0x80, true), (0x9B, true), (0x9F, true), (0x061C, true), (0x200E, true), (0x200F, true),
            (0x202A, true), (0x202E, true), (0x2066, true), (0x2069, true), (0x2028, true), (0x2029, true),
            (0x20, false), (0x41, false), (0x7E, false), (0xA0, false), (0xE9, false), (0x301, false),
            (0x200D, false), (0x1F351, false)
        ])
    func unsafe(code: UInt32, unsafe: Bool) throws {
        let scalar = try #require(Unicode.Scalar(code))
        #expect(WireText.isUnsafe(scalar) == unsafe)
    }

    @Test("escaped output keeps newlines and tabs, writes the rest as \\uXXXX, and escaping twice changes nothing")
    func escaped() {
        let hostile = "v1\u{1B}]0;owned\u{07}\r\u{9B}2J\u{202E}txt.exe\nnext\tcolumn"
        let once = WireText.escaped(hostile)
        #expect(once == #"v1\u001b]0;owned\u0007\u000d\u009b2J\u202etxt.exe"# + "\nnext\tcolumn")
        #expect(WireText.escaped(once) == once)
        #expect(!once.unicodeScalars.contains { WireText.isUnsafe($0) && $0 != "\n" && $0 != "\t" })
        #expect(WireText.escaped("plum ✓ é 🍑") == "plum ✓ é 🍑", "printable text is untouched")
    }

    struct Named: Decodable { var name: String }

    @Test("the escaped form inside a JSON string decodes to the same text")
    func escapedInsideJSON() throws {
        let name = "crate\u{9B}2J\u{202E}"
        let line = WireText.escaped(#"{"name":"\#(name)"}"#)
        let decoded = try JSONDecoder().decode(Named.self, from: Data(line.utf8))
        #expect(decoded.name == name)
    }

    @Test("a problem names the field, the code point and where it is, or the bytes over the limit")
    func problem() {
        #expect(WireText.problem(in: "ok", field: "name", limit: 2) == nil)
        #expect(
            WireText.problem(in: "é", field: "name", limit: 1) == #""name" is 2 bytes of UTF-8; at most 1 are kept"#)
        #expect(
            WireText.problem(in: "ab\u{1B}", field: "version", limit: 10)?
                .hasPrefix(#""version" holds U+001B (escape) at character 3"#) == true)
    }
}
