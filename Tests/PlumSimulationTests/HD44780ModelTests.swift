import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// The two port bytes that strobe one nibble (E high, then low), backlight on.
private func strobe(_ nibble: UInt8, data: Bool = false) -> [UInt8] {
    let port = nibble << 4 | 0x08 | (data ? 0x01 : 0x00)
    return [port | 0x04, port]
}

/// A byte in 4-bit mode: high nibble, then low.
private func byte(_ value: UInt8, data: Bool = false) -> [UInt8] {
    strobe(value >> 4, data: data) + strobe(value & 0x0F, data: data)
}

/// A model 50 ms after power-on, on a 100 kHz bus.
private func poweredModel(columns: Int = 16, rows: Int = 2) -> (VirtualClock, HD44780Model<VirtualClock>) {
    let clock = VirtualClock()
    let model = HD44780Model(columns: columns, rows: rows, clock: clock, powerOnSeed: nil)
    clock.advance(by: .milliseconds(50))
    return (clock, model)
}

/// Writes port bytes, each instruction's four in a transfer of its own, waiting `gap` after each.
private func send(_ wire: [UInt8], to model: HD44780Model<VirtualClock>, clock: VirtualClock, gap: Duration) throws {
    var offset = 0
    while offset < wire.count {
        let end = min(offset + 4, wire.count)
        try model.writeBlock(register: wire[offset], Array(wire[(offset + 1)..<end]))
        clock.advance(by: gap)
        offset = end
    }
}

/// Figure 24's dance and the usual set-up: 2 lines, display on, entry increment.
private func initialise(_ model: HD44780Model<VirtualClock>, _ clock: VirtualClock) throws {
    for nibble: UInt8 in [0x3, 0x3, 0x3, 0x2] {
        try model.writeBlock(register: strobe(nibble)[0], [strobe(nibble)[1]])
        clock.advance(by: .milliseconds(5))
    }
    try send(byte(0x28) + byte(0x0C) + byte(0x06), to: model, clock: clock, gap: .milliseconds(1))
    try send(byte(0x01), to: model, clock: clock, gap: .milliseconds(2))
}

@Suite("HD44780 and PCF8574 backpack model")
struct HD44780ModelTests {
    @Test("power-on: 8-bit mode, one line, display off, every port pin high, a blank screen")
    func powerOn() throws {
        let (_, model) = poweredModel()
        #expect(model.eightBitMode && !model.twoLineMode && !model.displayOn)
        #expect(try model.readByte(register: 0xFF) == 0xFF, "a PCF8574 read returns the port")
        #expect(
            model.screen.text == String(repeating: " ", count: 16) + "\n" + String(repeating: " ", count: 16) + "\n")
    }

    @Test("in 8-bit mode each E fall is a whole instruction with D0–D3 high: 2h alone switches to 4-bit")
    func eightBitStart() throws {
        let (clock, model) = poweredModel()
        try model.writeBlock(register: strobe(0x2)[0], [strobe(0x2)[1]])
        #expect(!model.eightBitMode)
        #expect(model.twoLineMode, "2Fh: N came from the floating D3")
        clock.advance(by: .milliseconds(5))
        try send(byte(0x0C), to: model, clock: clock, gap: .milliseconds(1))
        #expect(model.displayOn)
    }

    @Test("text written after Figure 24's set-up shows on its rows; the 2-line address counter runs from 27h to 40h")
    func textAndWrap() throws {
        let (clock, model) = poweredModel()
        try initialise(model, clock)
        try send(
            byte(0x80 | 0x0E) + byte(0x41, data: true) + byte(0x42, data: true) + byte(0x43, data: true),
            to: model, clock: clock, gap: .microseconds(40))
        #expect(model.screen.text(row: 0).hasSuffix("AB"))
        try send(
            byte(0x80 | 0x27) + byte(0x58, data: true) + byte(0x59, data: true),
            to: model, clock: clock, gap: .microseconds(40))
        #expect(model.ddram[39] == 0x58 && model.ddram[40] == 0x59)
        #expect(model.screen.text(row: 1).hasPrefix("Y"))
        #expect(model.tooEarly == 0)
    }

    @Test("CGRAM rows become the glyphs codes 0–7 and 8–15 show")
    func glyphs() throws {
        let (clock, model) = poweredModel()
        try initialise(model, clock)
        // Glyph 2 starts at CGRAM 10h: set CGRAM address 40h | 10h.
        var wire = byte(0x50)
        for row: UInt8 in [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F] { wire += byte(row, data: true) }
        wire += byte(0x80) + byte(0x02, data: true) + byte(0x0A, data: true)
        try send(wire, to: model, clock: clock, gap: .microseconds(40))
        let screen = model.screen
        #expect(screen.glyphs[2].rows == [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F])
        #expect(screen[0, 0] == 2 && screen[1, 0] == 2)
    }

    @Test("an instruction within 1.52 ms of a clear counts as too early")
    func tooEarly() throws {
        let (clock, model) = poweredModel()
        try initialise(model, clock)
        #expect(model.tooEarly == 0)
        try send(byte(0x01), to: model, clock: clock, gap: .microseconds(500))
        try send(byte(0x80), to: model, clock: clock, gap: .microseconds(40))
        #expect(model.tooEarly > 0)
    }

    @Test("the 20×4 rows start at 00h, 40h, 14h and 54h")
    func fourRows() throws {
        let (clock, model) = poweredModel(columns: 20, rows: 4)
        try initialise(model, clock)
        var wire: [UInt8] = []
        for (address, letter) in [(0x00, "a"), (0x40, "b"), (0x14, "c"), (0x54, "d")] as [(UInt8, String)] {
            wire += byte(0x80 | address) + byte(Array(letter.utf8)[0], data: true)
        }
        try send(wire, to: model, clock: clock, gap: .microseconds(40))
        #expect((0..<4).map { model.screen.text(row: $0).first } == ["a", "b", "c", "d"])
    }

    @Test("display off blanks the screen but keeps DDRAM; the backlight is P3")
    func displayOffAndBacklight() throws {
        let (clock, model) = poweredModel()
        try initialise(model, clock)
        try send(byte(0x80) + byte(0x5A, data: true), to: model, clock: clock, gap: .microseconds(40))
        try send(byte(0x08), to: model, clock: clock, gap: .microseconds(40))
        #expect(model.screen.text(row: 0).allSatisfy { $0 == " " } && model.ddram[0] == 0x5A)
        #expect(model.backlight)
        try model.writeBlock(register: 0x00, [0x00])
        #expect(!model.backlight)
        #expect(model.bytesWritten > 0 && model.writes > 0)
    }
}
