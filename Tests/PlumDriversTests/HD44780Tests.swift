import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// An LCD size the driver supports.
struct LCDSize: Sendable, CustomTestStringConvertible {
    var columns: Int
    var rows: Int
    var testDescription: String { "\(columns)×\(rows)" }

    static let all = [
        LCDSize(columns: 16, rows: 2), LCDSize(columns: 20, rows: 4), LCDSize(columns: 16, rows: 4),
        LCDSize(columns: 20, rows: 2), LCDSize(columns: 8, rows: 2)
    ]
}

typealias LCDModel = HD44780Model<VirtualClock>
typealias LCDDriver = HD44780<RecordingBus<LCDModel>, VirtualClock>

/// A backpack on a 100 kHz bus and a started driver on it, with the start's transfers forgotten.
func startedLCD(
    columns: Int = 16, rows: Int = 2, busClockHertz: Double = 100_000
) throws -> (VirtualClock, LCDModel, RecordingBus<LCDModel>, LCDDriver) {
    let clock = VirtualClock()
    let model = HD44780Model(columns: columns, rows: rows, clock: clock, busClockHertz: busClockHertz)
    let bus = RecordingBus(model)
    var driver = HD44780(bus: bus, clock: clock, columns: columns, rows: rows)
    try driver.start()
    bus.forget()
    return (clock, model, bus, driver)
}

/// A screen with text on every row, a bar glyph and a hatched glyph in use.
func testScreen(columns: Int, rows: Int, text: String = "PlumScale") -> CharacterScreen {
    var screen = CharacterScreen(columns: columns, rows: rows)
    for row in 0..<rows { screen.write("\(row)\(text) 12.5 g", column: 0, row: row) }
    screen.glyphs[0] = CharacterScreen.Glyph(rows: Array(repeating: 0x1C, count: 8))
    screen.glyphs[5] = CharacterScreen.Glyph(rows: [0x15, 0x0A, 0x15, 0x0A, 0x15, 0x0A, 0x15, 0x0A])
    screen[columns - 1, 0] = 0
    screen[columns - 1, rows - 1] = 5
    screen[columns - 2, rows - 1] = CharacterScreen.rightArrow
    return screen
}

/// The two port bytes that strobe one nibble with the backlight on: E (P2) high, then low.
private func strobe(_ nibble: UInt8, data: Bool) -> [UInt8] {
    let port = nibble << 4 | 0x08 | (data ? 0x01 : 0x00)
    return [port | 0x04, port]
}

@Suite("HD44780 driver on a PCF8574 backpack, against the model")
struct HD44780Tests {
    @Test(
        "the screen's text and glyphs appear on the model's LCD, with no instruction too early", arguments: LCDSize.all)
    func screenLands(_ size: LCDSize) throws {
        var (_, model, _, driver) = try startedLCD(columns: size.columns, rows: size.rows)
        #expect(model.screen == CharacterScreen(columns: size.columns, rows: size.rows).withGlyphs(model.screen.glyphs))
        let screen = testScreen(columns: size.columns, rows: size.rows)
        try driver.show(screen)
        #expect(model.screen == screen, "\(model.screen.text)")
        let next = testScreen(columns: size.columns, rows: size.rows, text: "Plum")
        try driver.show(next)
        #expect(model.screen == next, "\(model.screen.text)")
        #expect(model.tooEarly == 0)
        #expect(!model.eightBitMode && model.twoLineMode && model.displayOn && !model.cursorOn)
    }

    @Test("at 400 kHz the bus still spaces instructions past 37 µs")
    func fastBus() throws {
        var (_, model, _, driver) = try startedLCD(columns: 20, rows: 4, busClockHertz: 400_000)
        try driver.show(testScreen(columns: 20, rows: 4))
        #expect(model.tooEarly == 0)
    }

    @Test("a changed cell rewrites only that cell: one address and one character, 2 × 4 port bytes")
    func oneCell() throws {
        var (_, model, bus, driver) = try startedLCD(columns: 20, rows: 4)
        var screen = testScreen(columns: 20, rows: 4)
        try driver.show(screen)
        bus.forget()
        let executed = model.executed
        screen[7, 2] = UInt8(ascii: "#")
        #expect(try driver.show(screen) == 8)
        // Row 2 of a 20-column LCD starts at DDRAM 14h: 14h + 7 = 1Bh, set by 80h | 1Bh = 9Bh.
        #expect(bus.blocks.count == 1)
        let wire = [bus.blocks[0].control] + bus.blocks[0].bytes
        #expect(
            wire == strobe(0x9, data: false) + strobe(0xB, data: false) + strobe(0x2, data: true)
                + strobe(0x3, data: true))
        #expect(model.executed == executed + 2)
        #expect(model.screen == screen)
    }

    @Test("showing the same screen again puts no byte on the bus")
    func identicalScreen() throws {
        var (_, _, bus, driver) = try startedLCD()
        let screen = testScreen(columns: 16, rows: 2)
        try driver.show(screen)
        bus.forget()
        #expect(try driver.show(screen) == 0)
        #expect(bus.blocks.isEmpty)
    }

    @Test("the first show writes all eight glyphs and every cell: (1 + 64 + 2 × (1 + 16)) × 4 port bytes on a 16×2")
    func firstShowCost() throws {
        var (_, _, bus, driver) = try startedLCD()
        let screen = testScreen(columns: 16, rows: 2)
        let expected = (1 + 8 * 8 + 2 * (1 + 16)) * 4
        #expect(try driver.show(screen) == expected)
        #expect(bus.blocks.reduce(0) { $0 + 1 + $1.bytes.count } == expected)
        #expect(bus.blocks.allSatisfy { (1...32).contains($0.bytes.count) })
    }

    @Test("after a failed write the next show rewrites every glyph and cell, and the LCD is right again")
    func failedWrite() throws {
        var (_, model, _, driver) = try startedLCD()
        try driver.show(testScreen(columns: 16, rows: 2))
        model.inject(.transientIOError(count: 1))
        let next = testScreen(columns: 16, rows: 2, text: "Fig")
        #expect(throws: HardwareError.self) { try driver.show(next) }
        #expect(try driver.show(next) == (1 + 8 * 8 + 2 * (1 + 16)) * 4)
        #expect(model.screen == next)
    }

    @Test("a screen of the wrong size is refused naming both sizes; an unsupported LCD size is refused at start")
    func wrongSizes() throws {
        var (_, _, _, driver) = try startedLCD()
        let error = try #require(throws: HardwareError.self) { try driver.show(CharacterScreen(columns: 20, rows: 4)) }
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("20×4") && error.description.contains("16×2"))
        let clock = VirtualClock()
        var odd = HD44780(bus: HD44780Model(clock: clock), clock: clock, columns: 10, rows: 3)
        #expect(throws: HardwareError.self) { try odd.start() }
    }

    @Test("a driver that skips the 3h, 3h, 3h, 2h dance gets garbage: its nibbles pair up wrongly")
    func skippedDance() throws {
        let clock = VirtualClock()
        let model = HD44780Model(columns: 16, rows: 2, clock: clock)
        clock.advance(by: .milliseconds(50))
        // Function set 28h, display on 0Ch, clear 01h, entry mode 06h, then "Hi", straight in 4-bit.
        var wire: [UInt8] = []
        for byte: UInt8 in [0x28, 0x0C, 0x01, 0x06] {
            wire += strobe(byte >> 4, data: false) + strobe(byte & 0xF, data: false)
        }
        for byte in Array("Hi".utf8) { wire += strobe(byte >> 4, data: true) + strobe(byte & 0xF, data: true) }
        for offset in stride(from: 0, to: wire.count, by: 4) {
            try model.writeBlock(register: wire[offset], Array(wire[(offset + 1)..<(offset + 4)]))
            clock.advance(by: .milliseconds(3))
        }
        #expect(model.screen.text(row: 0) != "Hi" + String(repeating: " ", count: 14))
        #expect(!model.displayOn, "display on (0Ch) was split across two instructions")
    }

    @Test("start recovers an LCD left half-way through a byte in 4-bit mode")
    func restartMidByte() throws {
        var (_, model, bus, driver) = try startedLCD()
        try driver.show(testScreen(columns: 16, rows: 2))
        // A program stopped after one nibble.
        try bus.writeBlock(register: strobe(0x4, data: true)[0], [strobe(0x4, data: true)[1]])
        var again = HD44780(bus: bus, clock: driver.clock, columns: 16, rows: 2)
        try again.start()
        let screen = testScreen(columns: 16, rows: 2, text: "Again")
        try again.show(screen)
        #expect(model.screen == screen)
    }

    @Test("the backlight follows P3: set by setBacklight and kept by every write after it")
    func backlight() throws {
        var (_, model, bus, driver) = try startedLCD()
        #expect(model.backlight)
        try driver.setBacklight(false)
        #expect(!model.backlight)
        bus.forget()
        try driver.show(testScreen(columns: 16, rows: 2))
        #expect(bus.blocks.allSatisfy { ([$0.control] + $0.bytes).allSatisfy { $0 & 0x08 == 0 } })
        #expect(!model.backlight)
        try driver.setBacklight(true)
        #expect(model.backlight)
    }
}

extension CharacterScreen {
    /// The same screen with other glyphs (CGRAM is random at power-on).
    fileprivate func withGlyphs(_ glyphs: [Glyph]) -> CharacterScreen {
        var screen = self
        screen.glyphs = glyphs
        return screen
    }
}
