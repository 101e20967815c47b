/// A 7-bit I2C target address, in the range a device may use: 0x03…0x77.
///
/// The I2C specification (UM10204 §3.1.12) reserves 0x00–0x02 and 0x78–0x7F; `i2cdetect`
/// scans the same range. The ADS1115 answers at 0x48–0x4B, set by its ADDR pin.
public struct I2CAddress: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let validRange: ClosedRange<UInt8> = 0x03...0x77

    public let rawValue: UInt8

    /// `nil` when `rawValue` is outside 0x03…0x77.
    public init?(rawValue: UInt8) {
        guard Self.validRange.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Validates a number from a configuration file or command line.
    /// - Throws: ``HardwareError/Code/invalidRequest`` naming the address and the valid range.
    public init(validating value: Int) throws(HardwareError) {
        guard let byte = UInt8(exactly: value), let address = I2CAddress(rawValue: byte) else {
            throw HardwareError(
                .invalidRequest, operation: "checking", subject: "I2C address \(Self.hex(value))",
                detail: "outside the 7-bit device range 0x03…0x77",
                hint: "give the 7-bit address i2cdetect shows, such as 0x48 (not the 8-bit 0x90)")
        }
        self = address
    }

    /// Parses "0x48" or "72".
    public init(parsing text: String) throws(HardwareError) {
        let trimmed = text.trimmingWhitespace
        let lower = trimmed.lowercased()
        let value = lower.hasPrefix("0x") ? Int(lower.dropFirst(2), radix: 16) : Int(lower)
        guard let value else {
            throw HardwareError(
                .invalidRequest, operation: "parsing", subject: "I2C address '\(text)'",
                detail: "not a number", hint: "give a 7-bit address such as 0x48")
        }
        try self.init(validating: value)
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// "0x48".
    public var description: String { Self.hex(Int(rawValue)) }

    static func hex(_ value: Int) -> String {
        guard value >= 0 else { return String(value) }
        let digits = String(value, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
