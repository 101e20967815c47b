import PlumCore
import Testing

@testable import PlumStore

@Suite("CRC-32")
struct CRC32Tests {
    struct Check: Sendable, CustomStringConvertible {
        var text: String
        var crc: UInt32
        var description: String { "\"\(text)\"" }
    }

    @Test(
        "matches the published IEEE CRC-32 check values",
        arguments: [
            Check(text: "123456789", crc: 0xCBF4_3926),
            Check(text: "", crc: 0),
            Check(text: "The quick brown fox jumps over the lazy dog", crc: 0x414F_A339),
            Check(text: "a", crc: 0xE8B7_BE43)
        ])
    func checkValues(_ check: Check) {
        #expect(CRC32.checksum(Array(check.text.utf8)) == check.crc)
    }

    @Test("the label is crc32: and eight lowercase hex digits")
    func label() {
        #expect(CRC32.label(Array("a".utf8)) == "crc32:e8b7be43")
        #expect(CRC32.label([]) == "crc32:00000000")
    }
}
