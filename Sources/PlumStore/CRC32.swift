/// CRC-32 as in IEEE 802.3, zlib and PNG (reflected polynomial 0xEDB88320).
///
/// Check value: "123456789" → 0xCBF43926. It guards the calibration file against a flipped bit or
/// a hand edit gone wrong; it is not a defence against a deliberate change.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// The checksum as the calibration file writes it: `crc32:` and eight lowercase hex digits.
    public static func label(_ bytes: some Sequence<UInt8>) -> String {
        let hex = String(checksum(bytes), radix: 16)
        return "crc32:" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
