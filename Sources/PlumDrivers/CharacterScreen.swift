/// What a character LCD shows: rows of character codes and the eight custom glyphs.
///
/// Codes are the HD44780's (datasheet Table 4, ROM A00): 0x20–0x7D are ASCII but for 0x5C (¥)
/// and 0x7E/0x7F (→ ←), and 0x00–0x07 show the custom glyphs in CGRAM. It is what the layouts
/// write, what the HD44780 driver sends and what its model keeps.
public struct CharacterScreen: Hashable, Sendable {
    /// One 5 × 8 custom glyph: eight rows, the leftmost dot in bit 4 (datasheet Table 5).
    public struct Glyph: Hashable, Sendable {
        public var rows: [UInt8]

        public init(rows: [UInt8]) {
            precondition(rows.count == 8, "a glyph has eight rows")
            self.rows = rows.map { $0 & 0x1F }
        }

        public static let blank = Glyph(rows: Array(repeating: 0, count: 8))
    }

    /// The ROM code of the right arrow, used for the centre-of-zero mark (→0←).
    public static let rightArrow: UInt8 = 0x7E
    /// The ROM code of the left arrow.
    public static let leftArrow: UInt8 = 0x7F

    public let columns: Int
    public let rows: Int
    /// Row-major character codes.
    public private(set) var cells: [UInt8]
    /// CGRAM: the glyphs codes 0–7 show.
    public var glyphs: [Glyph]

    /// A blank screen of `columns` × `rows` (16 × 2, 20 × 4, …).
    public init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0, "a screen has at least one cell")
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: 0x20, count: columns * rows)
        glyphs = Array(repeating: .blank, count: 8)
    }

    public subscript(column: Int, row: Int) -> UInt8 {
        get { column >= 0 && column < columns && row >= 0 && row < rows ? cells[row * columns + column] : 0x20 }
        set {
            if column >= 0 && column < columns && row >= 0 && row < rows { cells[row * columns + column] = newValue }
        }
    }

    /// Writes `text` from `column` on `row`, clipped to the row; characters the ROM lacks show
    /// as `?`.
    public mutating func write(_ text: String, column: Int, row: Int) {
        var x = column
        for scalar in text.unicodeScalars {
            self[x, row] = Self.code(for: scalar)
            x += 1
        }
    }

    /// The ROM code for a character: printable ASCII but `\` and `~`, the arrows, else `?`.
    public static func code(for scalar: Unicode.Scalar) -> UInt8 {
        switch scalar {
        case "→": rightArrow
        case "←": leftArrow
        case "\\", "~": UInt8(ascii: "?")
        default: scalar.value >= 0x20 && scalar.value <= 0x7D ? UInt8(scalar.value) : UInt8(ascii: "?")
        }
    }

    /// One row as text: ASCII as itself, the arrows as → and ←, a custom glyph as the block
    /// element that looks most like it (``Glyph/looksLike``).
    public func text(row: Int) -> String {
        var line = ""
        for column in 0..<columns {
            let code = self[column, row]
            switch code {
            case 0...7: line.append(glyphs[Int(code)].looksLike)
            case Self.rightArrow: line.append("→")
            case Self.leftArrow: line.append("←")
            case 0x5C: line.append("¥")
            case 0x20...0x7D: line.append(Character(Unicode.Scalar(code)))
            default: line.append("▯")
            }
        }
        return line
    }

    /// Every row, one per line.
    public var text: String { (0..<rows).map { text(row: $0) + "\n" }.joined() }
}

extension CharacterScreen.Glyph {
    /// A block element for a text rendering: lit columns from the left as ▏▎▍▌▋ … █ (a bar's
    /// cell), else by how many dots are lit: blank, ░, ▒, ▓, █.
    public var looksLike: Character {
        let litColumns = (0..<5).filter { bit in rows.contains { $0 & (0x10 >> UInt8(bit)) != 0 } }
        let dots = rows.reduce(0) { $0 + $1.nonzeroBitCount }
        if dots == 0 { return " " }
        // A bar cell: whole columns lit from the left.
        let full = rows.allSatisfy { $0 == rows[0] }
        if full, litColumns == Array(0..<litColumns.count) {
            return ["▏", "▎", "▌", "▊", "█"][litColumns.count - 1]
        }
        switch dots * 4 / 40 {
        case 0: return "░"
        case 1: return "▒"
        case 2: return "▓"
        default: return "█"
        }
    }
}
