/// The ForceSketch colour for a load: red at 0, green at 1/3, blue at 2/3 and red again at
/// full scale.
///
/// One function for the CLI gauge and any later UI, so every client shows the same colour for
/// the same load.
public struct ForceHue: Hashable, Sendable {
    /// The hue in degrees, 0 ... 360 (360 is red again).
    public let degrees: Double
    /// The same colour at full saturation and value, for 24-bit terminal colour.
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    /// The colour for `fraction` of capacity; fractions outside 0 ... 1 are clamped, so an
    /// overload shows full-scale red and a negative reading shows zero red.
    public init(fraction: Double) {
        let f = fraction.isNaN ? 0 : min(1, max(0, fraction))
        degrees = f * 360
        // HSV to RGB with S = V = 1: six 60° sectors, each ramping one channel.
        let sector = (degrees / 60).truncatingRemainder(dividingBy: 6)
        let rising = sector - sector.rounded(.down)
        let (r, g, b): (Double, Double, Double)
        switch Int(sector) {
        case 0: (r, g, b) = (1, rising, 0)
        case 1: (r, g, b) = (1 - rising, 1, 0)
        case 2: (r, g, b) = (0, 1, rising)
        case 3: (r, g, b) = (0, 1 - rising, 1)
        case 4: (r, g, b) = (rising, 0, 1)
        default: (r, g, b) = (1, 0, 1 - rising)
        }
        red = UInt8((r * 255).rounded())
        green = UInt8((g * 255).rounded())
        blue = UInt8((b * 255).rounded())
    }

    /// The colour as `#rrggbb` in lower case, as a WEIGHT report's `rgb` carries it. Written
    /// byte by byte: it is made for every reading (docs/PERFORMANCE.md, 4).
    public var hex: String {
        String(unsafeUninitializedCapacity: 7) { text in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { digits in
                func put(_ byte: UInt8, at offset: Int) {
                    text[offset] = digits[Int(byte >> 4)]
                    text[offset + 1] = digits[Int(byte & 0xF)]
                }
                text[0] = UInt8(ascii: "#")
                put(red, at: 1)
                put(green, at: 3)
                put(blue, at: 5)
            }
            return 7
        }
    }

    /// The ANSI escape sequence that sets this colour as the terminal foreground.
    public var ansiForeground: String { "\u{1B}[38;2;\(red);\(green);\(blue)m" }
}
