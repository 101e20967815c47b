/// Draws a ``DisplayPicture`` on a pixel panel of any size: 128 × 64 and 128 × 32 OLEDs, and a
/// framebuffer, where everything grows by the unit ``unit(width:height:)``.
///
/// A pan is a header line (its name, and the marks: ■ stable, →0← centre of zero, NET, the
/// heavier pan's name inverted), the digits in the largest whole scale of the font that fits,
/// with the unit beside them when there is room, then the check verdict or the count in large
/// letters when there is one, and the force bar along the bottom where the panel is tall enough.
/// Two pans go side by side when both fit at twice the font's size at least; else they
/// alternate, one per `phase`.
package enum PixelLayout {
    /// The size of one font pixel for the small text: 1 on the OLEDs, more on a larger screen.
    package static func unit(width: Int, height: Int) -> Int { max(1, min(width / 128, height / 64)) }

    /// Draws `picture` on a cleared `canvas`.
    /// - Parameter phase: which pan shows when they alternate (it counts up every few seconds).
    package static func draw<Canvas: PixelCanvas>(_ picture: DisplayPicture, on canvas: inout Canvas, phase: Int) {
        canvas.paint(x: 0, y: 0, width: canvas.width, height: canvas.height, .background)
        let u = unit(width: canvas.width, height: canvas.height)
        var bodyHeight = canvas.height
        if let session = picture.session, canvas.height >= 32 * u {
            // The session's line along the bottom, under a rule.
            let lineHeight = PixelFont.cellHeight * u
            bodyHeight -= lineHeight + u
            canvas.paint(x: 0, y: bodyHeight, width: canvas.width, height: u, .plain)
            let columns = canvas.width / (PixelFont.cellWidth * u)
            canvas.text(session.text(width: columns), x: 0, y: bodyHeight + u + u / 2, scale: u)
        }
        switch picture.body {
        case .message(let title, let lines):
            message(title: title, lines: lines, on: &canvas, height: bodyHeight, unit: u)
        case .pans(let pans):
            let shown = visible(pans, width: canvas.width, unit: u, phase: phase)
            let cellWidth = canvas.width / shown.count
            for (index, pan) in shown.enumerated() {
                draw(
                    pan, on: &canvas, x: index * cellWidth, width: cellWidth - (index < shown.count - 1 ? u : 0),
                    height: bodyHeight, unit: u, alone: shown.count == 1)
                if index < shown.count - 1 {
                    canvas.paint(x: (index + 1) * cellWidth - u, y: 0, width: u, height: bodyHeight, .plain)
                }
            }
        }
    }

    /// The pans that fit: all of them side by side when each shows its digits at twice the
    /// font's size in its share of the width, else the one `phase` picks.
    static func visible(_ pans: [PanPicture], width: Int, unit u: Int, phase: Int) -> [PanPicture] {
        guard pans.count > 1 else { return pans }
        let share = width / pans.count - u
        let fit = pans.allSatisfy { PixelFont.width(of: $0.digits, scale: 2 * u) <= share - 2 * u }
        if fit { return pans }
        return [pans[((phase % pans.count) + pans.count) % pans.count]]
    }

    static func message<Canvas: PixelCanvas>(
        title: String, lines: [String], on canvas: inout Canvas, height: Int, unit u: Int
    ) {
        let columns = max(1, canvas.width / (PixelFont.cellWidth * u))
        let titleScale = PixelFont.width(of: title, scale: 2 * u) <= canvas.width && height >= 40 * u ? 2 * u : u
        var y = 0
        for part in wrap(title, columns: canvas.width / (PixelFont.cellWidth * titleScale)) {
            guard y + PixelFont.glyphHeight * titleScale <= height else { return }
            canvas.text(part, x: 0, y: y, scale: titleScale, .highlight)
            y += PixelFont.cellHeight * titleScale
        }
        y += u
        for line in lines {
            for part in wrap(line, columns: columns) {
                guard y + PixelFont.glyphHeight * u <= height else { return }
                canvas.text(part, x: 0, y: y, scale: u)
                y += PixelFont.cellHeight * u
            }
        }
    }

    /// One pan in the rectangle from (`x`, 0).
    static func draw<Canvas: PixelCanvas>(
        _ pan: PanPicture, on canvas: inout Canvas, x: Int, width: Int, height: Int, unit u: Int, alone: Bool
    ) {
        let line = PixelFont.cellHeight * u
        // Header: the name, inverted on the heavier pan, and the marks on the right.
        var marks = ""
        if pan.centreOfZero { marks += "→0←" }
        if pan.net { marks += (marks.isEmpty ? "" : " ") + "NET" }
        let markWidth = PixelFont.width(of: marks, scale: u)
        let stableWidth = 5 * u
        let nameRoom = max(0, (width - markWidth - stableWidth - 2 * u) / (PixelFont.cellWidth * u))
        let name = String(pan.name.prefix(nameRoom))
        if pan.heaviest {
            canvas.paint(x: x, y: 0, width: PixelFont.width(of: name, scale: u) + 2 * u, height: line, .highlight)
            canvas.text(name, x: x + u, y: u / 2, scale: u, .background)
        } else {
            canvas.text(name, x: x + u, y: u / 2, scale: u)
        }
        let right = x + width - u
        if pan.stable { canvas.paint(x: right - stableWidth, y: u, width: stableWidth, height: 5 * u, .plain) }
        canvas.text(marks, x: right - stableWidth - u - markWidth, y: u / 2, scale: u)

        // The bar along the bottom, where there is room for it.
        var bottom = height
        if let force = pan.force, height >= 48 * u || (alone && height >= 32 * u) {
            let barHeight = 4 * u
            bottom -= barHeight + u
            let filled = Int((Double(width - 2 * u) * min(max(force, 0), 1)).rounded())
            canvas.outline(x: x + u, y: bottom + u, width: width - 2 * u, height: barHeight, thickness: 1)
            canvas.paint(x: x + u, y: bottom + u, width: filled, height: barHeight, .hue(pan.hue))
        }

        // The big lines: the digits, then the verdict or the count in large letters, or why
        // there is no weight in small ones.
        var big = [BigLine(text: pan.digits, ink: pan.heaviest ? .highlight : .plain, small: false)]
        if let verdict = pan.verdict {
            big.append(BigLine(text: verdict, ink: verdict == "OK" ? .plain : .warning, small: false))
        } else if let count = pan.count {
            big.append(BigLine(text: count + " pcs", ink: .plain, small: false))
        } else if let status = pan.status {
            big.append(BigLine(text: status, ink: .warning, small: true))
        }
        let top = line + u
        let room = bottom - top
        let unitWidth = pan.unit.isEmpty ? 0 : PixelFont.width(of: pan.unit, scale: u) + 2 * u
        // The largest scale at which every line fits the width and all fit the height.
        var scale = u
        for candidate in stride(from: 8 * u, to: u, by: -1) {
            let fits = big.enumerated().allSatisfy { index, entry in
                PixelFont.width(of: entry.text, scale: entry.small ? u : candidate) + (index == 0 ? unitWidth : 0)
                    <= width - 2 * u
            }
            if fits, bigHeight(of: big, scale: candidate, unit: u) <= room {
                scale = candidate
                break
            }
        }
        var y = top + max(0, (room - bigHeight(of: big, scale: scale, unit: u)) / 2)
        for (index, entry) in big.enumerated() {
            let s = entry.small ? u : scale
            let textWidth = PixelFont.width(of: entry.text, scale: s)
            if index == 0 {
                // The digits right-aligned before the unit, as a scale shows them; the unit on
                // their baseline.
                canvas.text(entry.text, x: max(x + u, right - unitWidth - textWidth), y: y, scale: s, entry.ink)
                if !pan.unit.isEmpty {
                    canvas.text(
                        pan.unit, x: right - unitWidth + 2 * u, y: y + PixelFont.glyphHeight * (s - u), scale: u)
                }
            } else {
                canvas.text(entry.text, x: x + max(u, (width - textWidth) / 2), y: y, scale: s, entry.ink)
            }
            y += PixelFont.glyphHeight * s + 2 * u
        }
    }

    struct BigLine {
        var text: String
        var ink: Ink
        /// Words, not digits: drawn at the small text's size.
        var small: Bool
    }

    static func bigHeight(of lines: [BigLine], scale: Int, unit u: Int) -> Int {
        lines.map { PixelFont.glyphHeight * ($0.small ? u : scale) }.reduce(0, +) + (lines.count - 1) * 2 * u
    }

    /// Splits `text` into lines of at most `columns` characters, at spaces where it can.
    static func wrap(_ text: String, columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            while word.count > columns {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                lines.append(String(word.prefix(columns)))
                word = String(word.dropFirst(columns))
            }
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= columns {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
