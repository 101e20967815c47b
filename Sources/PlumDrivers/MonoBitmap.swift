/// A one-bit image as a monochrome panel shows it: `true` is a lit pixel, (0, 0) the top left.
///
/// It is what the layouts draw, what the SSD1306 driver sends and what its model keeps, so a
/// frame can be compared bit for bit from the layout to the panel's GDDRAM. It reads and writes
/// the netpbm bitmap format (`P1`, plain, one text row per pixel row, and `P4`, raw), which
/// every image viewer opens and git shows as text.
public struct MonoBitmap: Hashable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Row-major pixels.
    public private(set) var pixels: [Bool]

    /// A dark image of `width` × `height` pixels (each at least 1).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a bitmap has at least one pixel")
        self.width = width
        self.height = height
        pixels = Array(repeating: false, count: width * height)
    }

    /// The pixel at column `x`, row `y`; outside the image reads dark and writes nothing, so
    /// drawing may run over an edge and is clipped.
    public subscript(x: Int, y: Int) -> Bool {
        get { contains(x: x, y: y) ? pixels[y * width + x] : false }
        set { if contains(x: x, y: y) { pixels[y * width + x] = newValue } }
    }

    public func contains(x: Int, y: Int) -> Bool { x >= 0 && x < width && y >= 0 && y < height }

    /// Sets the rectangle from (`x`, `y`), clipped to the image.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ lit: Bool = true) {
        guard let (columns, rows) = clip(x: x, y: y, width: w, height: h, within: width, height) else { return }
        for row in rows {
            for column in columns { pixels[row * width + column] = lit }
        }
    }

    /// Pixels lit.
    public var litCount: Int { pixels.reduce(0) { $0 + ($1 ? 1 : 0) } }

    // MARK: The SSD1306's memory layout

    /// The eight pixels of one GDDRAM byte (SSD1306 datasheet §8.7): `column` in `page`, the
    /// page's top row in bit 0. Rows past the bottom read dark.
    public func pageByte(page: Int, column: Int) -> UInt8 {
        var byte: UInt8 = 0
        for bit in 0..<8 where self[column, page * 8 + bit] { byte |= 1 << UInt8(bit) }
        return byte
    }

    /// Sets the eight pixels of one GDDRAM byte (the inverse of ``pageByte(page:column:)``).
    public mutating func setPageByte(_ byte: UInt8, page: Int, column: Int) {
        for bit in 0..<8 { self[column, page * 8 + bit] = byte & (1 << UInt8(bit)) != 0 }
    }

    /// Pages of eight rows: 8 for 64 rows, 4 for 32.
    public var pages: Int { (height + 7) / 8 }

    // MARK: netpbm

    /// The image as a plain PBM (`P1`): a header, then one line of `0` and `1` per row, `1` lit.
    public var pbm: String {
        var text = "P1\n\(width) \(height)\n"
        text.reserveCapacity(text.utf8.count + (width + 1) * height)
        for row in 0..<height {
            for column in 0..<width { text.append(pixels[row * width + column] ? "1" : "0") }
            text.append("\n")
        }
        return text
    }

    /// Reads a plain (`P1`) or raw (`P4`) PBM.
    /// - Throws: ``MonoBitmapError`` saying what in the file is not a bitmap.
    public init(pbm bytes: [UInt8]) throws(MonoBitmapError) {
        var reader = PBMReader(bytes: bytes)
        let magic = try reader.token()
        guard magic == "P1" || magic == "P4" else { throw MonoBitmapError("starts with '\(magic)', not P1 or P4") }
        guard let width = Int(try reader.token()), let height = Int(try reader.token()), width > 0, height > 0,
            width <= 4096, height <= 4096
        else { throw MonoBitmapError("has no valid width and height (1…4096 each)") }
        self.init(width: width, height: height)
        if magic == "P1" {
            for index in 0..<(width * height) {
                guard let digit = reader.nextBit() else {
                    throw MonoBitmapError("ends after \(index) of \(width * height) pixels")
                }
                pixels[index] = digit
            }
        } else {
            reader.skipOneWhitespace()
            let rowBytes = (width + 7) / 8
            guard reader.remaining >= rowBytes * height else {
                throw MonoBitmapError("holds \(reader.remaining) bytes of pixels, \(rowBytes * height) needed")
            }
            for row in 0..<height {
                for column in 0..<width {
                    let byte = reader.byte(at: row * rowBytes + column / 8)
                    pixels[row * width + column] = byte & (0x80 >> UInt8(column % 8)) != 0
                }
            }
        }
    }

    /// The image in block characters, two pixel rows per text line (▀ ▄ █), for a terminal.
    public var blockText: String {
        var text = ""
        for row in stride(from: 0, to: height, by: 2) {
            for column in 0..<width {
                switch (self[column, row], self[column, row + 1]) {
                case (true, true): text.append("█")
                case (true, false): text.append("▀")
                case (false, true): text.append("▄")
                case (false, false): text.append(" ")
                }
            }
            text.append("\n")
        }
        return text
    }

    public var description: String { "MonoBitmap(\(width)×\(height), \(litCount) lit)" }
}

/// The columns and rows of a rectangle inside an image of `width` × `height`; nil when none are.
func clip(x: Int, y: Int, width w: Int, height h: Int, within width: Int, _ height: Int) -> (Range<Int>, Range<Int>)? {
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(width, x + w)
    let y1 = min(height, y + h)
    guard x0 < x1, y0 < y1 else { return nil }
    return (x0..<x1, y0..<y1)
}

/// A file that is not a PBM bitmap; the message says what is wrong with it.
public struct MonoBitmapError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ problem: String) { description = "the bitmap \(problem)" }
}

/// Reads PBM tokens, skipping whitespace and `#` comments.
private struct PBMReader {
    let bytes: [UInt8]
    var index = 0

    var remaining: Int { bytes.count - index }

    func byte(at offset: Int) -> UInt8 { bytes[index + offset] }

    mutating func skipSpaceAndComments() {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if Self.isSpace(bytes[index]) {
                index += 1
            } else {
                return
            }
        }
    }

    mutating func token() throws(MonoBitmapError) -> String {
        skipSpaceAndComments()
        let start = index
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "#") { index += 1 }
        guard index > start else { throw MonoBitmapError("ends inside its header") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func nextBit() -> Bool? {
        skipSpaceAndComments()
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        switch bytes[index] {
        case UInt8(ascii: "0"): return false
        case UInt8(ascii: "1"): return true
        default: return nil
        }
    }

    mutating func skipOneWhitespace() { if index < bytes.count, Self.isSpace(bytes[index]) { index += 1 } }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
