package import PlumDrivers

/// Draws a ``DisplayPicture`` on a character LCD (16 × 2, 20 × 4).
///
/// A pan takes a row: its name, the marks, and the value right-aligned with its unit, the last
/// column the stable mark. Rows left over carry, for each pan shown, its verdict, count or
/// state, else its force bar in custom characters; a running session takes the last row.
/// When the pans do not all get a row they alternate, one per `phase`.
package enum CharacterLayout {
    /// CGRAM: 0…4 a bar cell with 1…5 columns lit; 5 the stable mark; 6 the heavier pan's mark.
    static let barGlyphs: [CharacterScreen.Glyph] = (1...5).map { lit in
        let row = UInt8(0x1F) ^ (UInt8(0x1F) >> UInt8(lit))
        return CharacterScreen.Glyph(rows: Array(repeating: row, count: 8))
    }
    static let stableGlyph = CharacterScreen.Glyph(rows: [0, 0, 0x0E, 0x1F, 0x1F, 0x1F, 0x0E, 0])
    static let heaviestGlyph = CharacterScreen.Glyph(rows: [0, 0x04, 0x0E, 0x1F, 0x1F, 0, 0, 0])
    static let stableCode: UInt8 = 5
    static let heaviestCode: UInt8 = 6

    package static func draw(_ picture: DisplayPicture, columns: Int, rows: Int, phase: Int) -> CharacterScreen {
        var screen = CharacterScreen(columns: columns, rows: rows)
        screen.glyphs = barGlyphs + [stableGlyph, heaviestGlyph, .blank]
        var available = rows
        if let session = picture.session, rows >= 2 {
            available -= 1
            screen.write(session.text(width: columns), column: 0, row: rows - 1)
        }
        switch picture.body {
        case .message(let title, let lines):
            for (row, line) in messageRows(title: title, lines: lines, columns: columns, rows: available).enumerated() {
                screen.write(line, column: 0, row: row)
            }
        case .pans(let pans):
            let shown: [PanPicture]
            if pans.count <= available {
                shown = pans
            } else {
                let count = max(1, available)
                let start = ((phase * count) % pans.count + pans.count) % pans.count
                shown = (0..<count).map { pans[(start + $0) % pans.count] }
            }
            for (row, pan) in shown.enumerated() { valueRow(pan, row: row, on: &screen) }
            var row = shown.count
            for pan in shown where row < available {
                infoRow(pan, row: row, on: &screen)
                row += 1
            }
        }
        return screen
    }

    /// A message's rows: the title, then the lines; when they do not all fit, the title and the
    /// last line (where the page is) come first, and the middle ones (the reason) fill what is
    /// left.
    static func messageRows(title: String, lines: [String], columns: Int, rows: Int) -> [String] {
        let titleRows = PixelLayout.wrap(title, columns: columns)
        let lineRows = lines.map { PixelLayout.wrap($0, columns: columns) }
        let all = titleRows + lineRows.flatMap { $0 }
        guard all.count > rows, let last = lineRows.last, !last.isEmpty, rows > titleRows.count else {
            return Array(all.prefix(rows))
        }
        let tail = Array(last.prefix(rows - titleRows.count))
        let middle = lineRows.dropLast().flatMap { $0 }.prefix(rows - titleRows.count - tail.count)
        return titleRows + middle + tail
    }

    /// "left  →0← 123.4 g●": the name, the marks, the value right-aligned, the stable mark last.
    static func valueRow(_ pan: PanPicture, row: Int, on screen: inout CharacterScreen) {
        let columns = screen.columns
        // Not a weight: the word for why ("stale", "no signal"), never dashes alone; an
        // overload keeps its "100%+".
        var value = pan.digits
        if !pan.unit.isEmpty { value += " " + pan.unit }
        if let status = pan.status, pan.reading != .overload { value = status }
        var marks = ""
        if pan.centreOfZero { marks += "→0←" }
        if pan.net { marks += "N" }
        let valueEnd = columns - 1
        let valueStart = max(0, valueEnd - value.count)
        screen.write(String(value.suffix(valueEnd)), column: valueStart, row: row)
        if pan.stable { screen[columns - 1, row] = stableCode }
        var nameRoom = valueStart - 1
        if !marks.isEmpty, nameRoom - marks.count >= 2 {
            screen.write(marks, column: valueStart - 1 - marks.count, row: row)
            nameRoom -= marks.count + 1
        }
        var column = 0
        if pan.heaviest {
            screen[0, row] = heaviestCode
            column = 1
            nameRoom -= 1
        }
        if nameRoom > 0 { screen.write(String(pan.name.prefix(nameRoom)), column: column, row: row) }
    }

    /// The verdict, the count, why there is no weight, or the force bar.
    static func infoRow(_ pan: PanPicture, row: Int, on screen: inout CharacterScreen) {
        let columns = screen.columns
        if let verdict = pan.verdict {
            let text = "\(pan.name): \(verdict)"
            screen.write(String(text.prefix(columns)), column: 0, row: row)
        } else if let count = pan.count {
            screen.write(String("\(pan.name): \(count) pcs".prefix(columns)), column: 0, row: row)
        } else if let status = pan.status {
            screen.write(String("\(pan.name): \(status)".prefix(columns)), column: 0, row: row)
        } else if let force = pan.force {
            // Five columns of dots per cell: the bar in fifths of a cell.
            let fifths = Int((Double(columns * 5) * min(max(force, 0), 1)).rounded())
            for column in 0..<columns {
                let lit = min(5, max(0, fifths - column * 5))
                if lit > 0 { screen[column, row] = UInt8(lit - 1) }
            }
        }
    }
}
