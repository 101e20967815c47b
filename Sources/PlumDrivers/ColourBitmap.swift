/// A colour image for a framebuffer: 8 bits each of red, green and blue per pixel, (0, 0) the
/// top left. The framebuffer driver packs it into whatever the kernel reports (1, 16, 24 or
/// 32 bits per pixel, with the channels' offsets and lengths from FBIOGET_VSCREENINFO).
public struct ColourBitmap: Hashable, Sendable {
    /// One colour, 0xRRGGBB.
    public struct Colour: Hashable, Sendable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// From `0xRRGGBB`.
        public init(rgb: UInt32) {
            self.init(
                red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                blue: UInt8(truncatingIfNeeded: rgb))
        }

        /// `0xRRGGBB`.
        public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

        /// Perceived brightness, 0…255 (ITU-R BT.601 weights), for one-bit panels.
        public var luma: Int { (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000 }

        public static let black = Colour(rgb: 0x000000)
        public static let white = Colour(rgb: 0xFFFFFF)
        public static let yellow = Colour(rgb: 0xFFD700)
        public static let grey = Colour(rgb: 0x808080)
        public static let red = Colour(rgb: 0xFF3030)
        public static let green = Colour(rgb: 0x30C030)
    }

    public let width: Int
    public let height: Int
    /// Row-major pixels.
    public private(set) var pixels: [Colour]

    public init(width: Int, height: Int, background: Colour = .black) {
        precondition(width > 0 && height > 0, "a bitmap has at least one pixel")
        self.width = width
        self.height = height
        pixels = Array(repeating: background, count: width * height)
    }

    /// The pixel at column `x`, row `y`; outside the image reads black and writes nothing.
    public subscript(x: Int, y: Int) -> Colour {
        get { x >= 0 && x < width && y >= 0 && y < height ? pixels[y * width + x] : .black }
        set { if x >= 0 && x < width && y >= 0 && y < height { pixels[y * width + x] = newValue } }
    }

    /// Sets the rectangle from (`x`, `y`), clipped to the image.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ colour: Colour) {
        guard let (columns, rows) = clip(x: x, y: y, width: w, height: h, within: width, height) else { return }
        for row in rows {
            for column in columns { pixels[row * width + column] = colour }
        }
    }

    /// The image as a plain PPM (`P3`), for tests and docs.
    public var ppm: String {
        var text = "P3\n\(width) \(height)\n255\n"
        for row in 0..<height {
            text += (0..<width).map {
                let c = pixels[row * width + $0]
                return "\(c.red) \(c.green) \(c.blue)"
            }.joined(separator: " ")
            text += "\n"
        }
        return text
    }
}
