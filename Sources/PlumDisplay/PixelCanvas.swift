package import PlumDrivers
internal import PlumProtocol

/// What the pixel layouts draw on: a one-bit panel's image or a colour framebuffer's.
package protocol PixelCanvas {
    var width: Int { get }
    var height: Int { get }
    /// Fills the rectangle, clipped to the canvas.
    mutating func paint(x: Int, y: Int, width: Int, height: Int, _ ink: Ink)
}

/// How a mark is drawn: a one-bit panel lights every ink alike; a colour one tells them apart.
package enum Ink: Hashable, Sendable {
    /// Text and marks.
    case plain
    /// The heavier pan's digits: Plum-O-Meter's yellow.
    case highlight
    /// The force bar: the ForceSketch hue in degrees (0 red, 120 green, 240 blue, 360 red).
    case hue(Double)
    /// A verdict or state that needs attention: red on colour.
    case warning
    /// Unlit: clears.
    case background

    /// The colour on a colour panel.
    package var colour: ColourBitmap.Colour {
        switch self {
        case .plain: .white
        case .highlight: .yellow
        case .warning: .red
        case .background: .black
        case .hue(let degrees): Self.colour(hue: degrees)
        }
    }

    /// The colour ForceSketch gives `degrees` (``ForceHue``, as every client draws it).
    static func colour(hue degrees: Double) -> ColourBitmap.Colour {
        let hue = ForceHue(fraction: degrees / 360)
        return ColourBitmap.Colour(red: hue.red, green: hue.green, blue: hue.blue)
    }
}

extension MonoBitmap: PixelCanvas {
    package mutating func paint(x: Int, y: Int, width: Int, height: Int, _ ink: Ink) {
        fill(x: x, y: y, width: width, height: height, ink != .background)
    }
}

extension ColourBitmap: PixelCanvas {
    package mutating func paint(x: Int, y: Int, width: Int, height: Int, _ ink: Ink) {
        fill(x: x, y: y, width: width, height: height, ink.colour)
    }
}

extension PixelCanvas {
    /// Draws `text` with its top left at (`x`, `y`), each font pixel `scale` × `scale`.
    mutating func text(_ text: String, x: Int, y: Int, scale: Int, _ ink: Ink = .plain) {
        var left = x
        for character in text {
            let rows = PixelFont.rows(for: character)
            for (row, bits) in rows.enumerated() {
                for column in 0..<PixelFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                    paint(x: left + column * scale, y: y + row * scale, width: scale, height: scale, ink)
                }
            }
            left += PixelFont.cellWidth * scale
        }
    }

    /// A one-pixel-wide (at `scale`) rectangle outline.
    mutating func outline(x: Int, y: Int, width: Int, height: Int, thickness: Int, _ ink: Ink = .plain) {
        paint(x: x, y: y, width: width, height: thickness, ink)
        paint(x: x, y: y + height - thickness, width: width, height: thickness, ink)
        paint(x: x, y: y, width: thickness, height: height, ink)
        paint(x: x + width - thickness, y: y, width: thickness, height: height, ink)
    }
}
