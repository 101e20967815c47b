/// The ADS1115's four registers, selected by the address pointer P[1:0].
///
/// Mirrors SBAS444 §9.6.1 "Address Pointer Register": on SMBus the command byte of every
/// word transfer is the pointer, so these raw values are the command bytes. All four are
/// 16 bits wide and go on the wire most significant byte first.
public enum ADS1115Register: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The last conversion result, two's complement (read-only).
    case conversion = 0x00
    /// Operating mode, input, range, rate and comparator settings; OS status.
    case config = 0x01
    /// Comparator low threshold; MSB 0 with Hi_thresh MSB 1 selects conversion-ready mode.
    case loThresh = 0x02
    /// Comparator high threshold.
    case hiThresh = 0x03

    public var description: String {
        switch self {
        case .conversion: "Conversion"
        case .config: "Config"
        case .loThresh: "Lo_thresh"
        case .hiThresh: "Hi_thresh"
        }
    }
}
