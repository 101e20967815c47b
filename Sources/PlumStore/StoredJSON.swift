/// Byte-level reading of the checksummed JSON files the stores write: which bytes the payload
/// is, as stored, without decoding and re-encoding it.
///
/// A checksum over a re-encoding depends on how this toolchain prints numbers (`100` or
/// `100.0`, how many digits of 0.1), so a new toolchain could invalidate every file. The
/// checksum therefore covers the payload's stored bytes with the whitespace between tokens
/// removed: what was written, however the writer printed its numbers, and still the same after
/// an editor re-indents the file. For the files written so far (sorted keys, the same encoder
/// for the pretty file and the canonical form) this is exactly the canonical form they were
/// checksummed over, so they verify unchanged.
enum StoredJSON {
    /// The checksum written into a new file before the real one is known; the same length.
    static let placeholder = "crc32:00000000"

    /// The byte range of each top-level member's value, by key, or `nil` when the bytes are
    /// not one JSON object or a key appears twice (ambiguous: which payload is meant?).
    static func members(_ bytes: [UInt8]) -> [String: Range<Int>]? {
        var members: [String: Range<Int>] = [:]
        var i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i = skipSpace(bytes, i + 1)
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return members }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(bytes, i) else { return nil }
            let key = String(decoding: bytes[(i + 1)..<(keyEnd - 1)], as: UTF8.self)
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            let start = skipSpace(bytes, i + 1)
            guard let end = valueEnd(bytes, start), members[key] == nil else { return nil }
            members[key] = start..<end
            i = skipSpace(bytes, end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { return skipSpace(bytes, i + 1) == bytes.count ? members : nil }
            guard bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return nil
    }

    /// The checksum label over the stored bytes of the top-level `payload` member, or `nil`
    /// when there is no single such member.
    static func payloadChecksum(_ bytes: [UInt8]) -> String? {
        guard let range = members(bytes)?["payload"] else { return nil }
        return CRC32.label(compact(bytes[range]))
    }

    /// Replaces the placeholder checksum in freshly encoded bytes with the payload's real one.
    static func sealed(_ bytes: [UInt8]) -> [UInt8]? {
        guard let members = members(bytes), let range = members["checksum"], let payload = members["payload"],
            Array(bytes[range]) == Array("\"\(placeholder)\"".utf8)
        else { return nil }
        var sealed = bytes
        sealed.replaceSubrange(range, with: Array("\"\(CRC32.label(compact(bytes[payload])))\"".utf8))
        return sealed
    }

    /// The bytes without the whitespace between tokens (strings are kept as they are).
    static func compact(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if !isSpace(byte) {
                out.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return out
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// The index just past the string starting at `start` (a quote), or `nil` if unterminated.
    private static func stringEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                i += 2
            } else if bytes[i] == UInt8(ascii: "\"") {
                return i + 1
            } else {
                i += 1
            }
        }
        return nil
    }

    /// The index just past the value starting at `start`, or `nil` if it does not end.
    private static func valueEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return nil
        default:
            var i = start
            while i < bytes.count, !isSpace(bytes[i]),
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[i])
            {
                i += 1
            }
            return i > start ? i : nil
        }
    }
}
