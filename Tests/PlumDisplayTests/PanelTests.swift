import PlumDrivers
import PlumHardware
import PlumSimulation
import PlumSystem
import Testing

@testable import PlumDisplay

/// The panels on their chip models: what the layout drew is what the chip shows, and an
/// unchanged picture costs nothing on the bus.
@Suite("Display panels on the SSD1306 and HD44780 models")
struct PanelTests {
    static let picture = DisplayPicture(body: .pans([Pans.plum, Pans.light]))

    @Test("the OLED shows exactly the layout's frame, for both heights and upside down")
    func oledShowsTheLayout() throws {
        for (geometry, rotated) in [
            (SSD1306<SSD1306Model>.Geometry.w128h64, false), (.w128h32, false), (.w128h64, true)
        ] {
            let model = SSD1306Model(height: geometry.height)
            var panel = OLEDPanel(
                driver: SSD1306(bus: model, geometry: geometry, rotated180: rotated), geometry: geometry)
            try panel.start()
            let bytes = try panel.show(Self.picture, phase: 0)
            var expected = MonoBitmap(width: 128, height: geometry.height)
            PixelLayout.draw(Self.picture, on: &expected, phase: 0)
            // Upside down, the glass in its own orientation shows the frame turned half a turn: the
            // right way up for someone reading the panel as it is mounted.
            let glass = rotated ? Self.halfTurn(model.frame) : model.frame
            #expect(glass == expected, "\(geometry) rotated \(rotated): the glass shows the layout")
            #expect(bytes > 0 && bytes <= 1088, "at most a full frame: 8 pages × (128 + 4 headers + 4 address)")
            #expect(try panel.show(Self.picture, phase: 0) == 0, "the same picture again: nothing on the bus")
        }
    }

    static func halfTurn(_ frame: MonoBitmap) -> MonoBitmap {
        var turned = MonoBitmap(width: frame.width, height: frame.height)
        for y in 0..<frame.height {
            for x in 0..<frame.width { turned[frame.width - 1 - x, frame.height - 1 - y] = frame[x, y] }
        }
        return turned
    }

    @Test("a change of one digit sends a small part of a frame")
    func oledSendsTheChange() throws {
        let model = SSD1306Model(height: 64)
        var panel = OLEDPanel(driver: SSD1306(bus: model, geometry: .w128h64), geometry: .w128h64)
        try panel.start()
        let full = try panel.show(Self.picture, phase: 0)
        var changed = Pans.plum
        changed.reading = .weight("87.4", unit: "g")
        let step = try panel.show(DisplayPicture(body: .pans([changed, Pans.light])), phase: 0)
        #expect(step > 0 && step * 4 < full, "one digit: \(step) bytes against \(full) for the whole")
    }

    @Test("the LCD shows the layout's rows and glyphs; an unchanged screen sends nothing")
    func lcdShowsTheLayout() throws {
        let clock = VirtualClock()
        let model = HD44780Model(columns: 20, rows: 4, clock: clock, busClockHertz: nil, powerOnSeed: nil)
        var panel = LCDPanel(
            driver: HD44780(bus: model, clock: clock, columns: 20, rows: 4), columns: 20, rows: 4)
        try panel.start()
        _ = try panel.show(Self.picture, phase: 0)
        let expected = CharacterLayout.draw(Self.picture, columns: 20, rows: 4, phase: 0)
        #expect(model.screen.text == expected.text, "the rows")
        #expect(model.screen.glyphs == expected.glyphs, "the bar, stable and heaviest glyphs in CGRAM")
        #expect(try panel.show(Self.picture, phase: 0) == 0)
    }
}
