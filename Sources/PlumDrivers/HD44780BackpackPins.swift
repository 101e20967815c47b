/// The PCF8574 port bits of the common HD44780 backpack, the wiring ``HD44780`` drives.
public struct HD44780BackpackPins: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// P0: register select, 0 instruction, 1 data.
    public static let registerSelect = HD44780BackpackPins(rawValue: 0x01)
    /// P1: read (1) or write (0).
    public static let readWrite = HD44780BackpackPins(rawValue: 0x02)
    /// P2: the enable strobe; the LCD latches on its falling edge.
    public static let enable = HD44780BackpackPins(rawValue: 0x04)
    /// P3: the backlight.
    public static let backlight = HD44780BackpackPins(rawValue: 0x08)
}
