import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// A dark, powered model: charge pump and display on, nothing else changed from reset.
private func litModel(height: Int = 64) throws -> SSD1306Model {
    let model = SSD1306Model(height: height, powerOnSeed: nil)
    try model.writeBlock(register: 0x00, [0x8D, 0x14, 0xAF])
    return model
}

@Suite("SSD1306 chip model")
struct SSD1306ModelTests {
    @Test("power-on: display off (status 40h), charge pump off, page addressing, random GDDRAM, a dark panel")
    func powerOn() throws {
        let model = SSD1306Model()
        #expect(try model.readByte(register: 0x00) == 0x40)
        #expect(!model.displayOn && !model.chargePumpOn)
        #expect(model.addressingMode == .page && model.contrast == 0x7F && model.multiplex == 64)
        #expect(model.gddram.litCount > 0)
        #expect(model.frame.litCount == 0)
        try model.writeBlock(register: 0x00, [0xAF])
        #expect(model.frame.litCount == 0, "no charge pump, no light")
        try model.writeBlock(register: 0x00, [0x8D, 0x14])
        #expect(model.frame.litCount > 0, "now the random memory shows")
    }

    @Test("horizontal addressing in a 21h/22h window: the column wraps to its start a page down, then to page one")
    func horizontalWindow() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3])
        try model.writeBlock(register: 0x40, [1, 2, 3, 4, 5, 6, 7])
        let ram = model.gddram
        #expect((10...12).map { ram.pageByte(page: 2, column: $0) } == [7, 2, 3], "the 7th byte wrapped to page 2")
        #expect((10...12).map { ram.pageByte(page: 3, column: $0) } == [4, 5, 6])
        #expect(ram.pageByte(page: 2, column: 13) == 0 && ram.pageByte(page: 4, column: 10) == 0)
        #expect(model.column == 11 && model.page == 2)
    }

    @Test("vertical addressing: the page runs down the window, then the next column, then back to the start")
    func verticalWindow() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0x20, 0x01, 0x21, 0, 1, 0x22, 6, 7])
        try model.writeBlock(register: 0x40, [0xA1, 0xA2, 0xA3, 0xA4, 0xA5])
        let ram = model.gddram
        #expect(ram.pageByte(page: 6, column: 0) == 0xA5)
        #expect(ram.pageByte(page: 7, column: 0) == 0xA2)
        #expect(ram.pageByte(page: 6, column: 1) == 0xA3)
        #expect(ram.pageByte(page: 7, column: 1) == 0xA4)
    }

    @Test("page addressing: the column wraps to 0 within the page and the page stays")
    func pageModeWraps() throws {
        let model = try litModel()
        // B5h: page 5; 0Eh, 17h: column 7Eh = 126.
        try model.writeBlock(register: 0x00, [0xB5, 0x0E, 0x17])
        try model.writeBlock(register: 0x40, [1, 2, 3])
        #expect(model.gddram.pageByte(page: 5, column: 126) == 1)
        #expect(model.gddram.pageByte(page: 5, column: 127) == 2)
        #expect(model.gddram.pageByte(page: 5, column: 0) == 3)
        #expect(model.page == 5 && model.column == 1)
    }

    @Test("control bytes with Co = 1 carry one byte each; Co = 0 turns the rest into one stream")
    func controlBytes() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x80, [0xB1, 0x80, 0x00, 0x80, 0x10, 0xC0, 0xAA, 0x40, 0x01, 0x02])
        #expect((0...2).map { model.gddram.pageByte(page: 1, column: $0) } == [0xAA, 0x01, 0x02])
    }

    @Test("a command's parameters may come in a later transfer, and unknown commands are recorded")
    func parametersAndUnknown() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0x81])
        try model.writeBlock(register: 0x00, [0x33])
        #expect(model.contrast == 0x33)
        try model.writeBlock(register: 0x00, [0xAD, 0x9F])
        #expect(model.unknownCommands == [0xAD, 0x9F])
    }

    @Test("A0h/A1h mirror only data written after them; C8h flips the picture at once")
    func remaps() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0xA1, 0xC8, 0xB0, 0x00, 0x10])
        try model.writeBlock(register: 0x40, [0x01])
        // A1h and C8h: column 0, row 0 is the viewer's top left.
        #expect(model.frame[0, 0] && model.frame.litCount == 1)
        try model.writeBlock(register: 0x00, [0xA0])
        #expect(model.frame[0, 0], "the remap does not move what is stored")
        try model.writeBlock(register: 0x00, [0xC0])
        #expect(model.frame[0, 63] && model.frame.litCount == 1, "the scan direction flips at once")
    }

    @Test("a 64-row module given sequential COM pins (02h) interleaves: RAM row 32 shows on line 1, row 1 on line 2")
    func wrongComPins() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0xA1, 0xC8, 0xDA, 0x02, 0xB0, 0x00, 0x10])
        try model.writeBlock(register: 0x40, [0x02])  // row 1
        try model.writeBlock(register: 0x00, [0xB4, 0x01, 0x10])
        try model.writeBlock(register: 0x40, [0x01])  // row 32, column 1
        #expect(model.frame[0, 2] && model.frame[1, 1] && model.frame.litCount == 2)
    }

    @Test("inverse lights what is 0; entire display on lights everything; multiplex 32 darkens half the lines")
    func fundamentals() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0xA1, 0xC8, 0xA7])
        #expect(model.frame.litCount == 128 * 64)
        try model.writeBlock(register: 0x00, [0xA6, 0xA5])
        #expect(model.frame.litCount == 128 * 64)
        try model.writeBlock(register: 0x00, [0xA8, 0x1F])
        #expect(model.frame.litCount == 128 * 64 / 2)
    }

    @Test("start line 40h + n moves the picture up n rows")
    func startLine() throws {
        let model = try litModel()
        try model.writeBlock(register: 0x00, [0xA1, 0xC8, 0xB1, 0x00, 0x10])
        try model.writeBlock(register: 0x40, [0x01])  // row 8
        try model.writeBlock(register: 0x00, [0x43])
        #expect(model.frame[0, 5] && model.frame.litCount == 1)
    }

    @Test("writes count their bytes after the address; blocks over 32 bytes are refused like i2c-dev's")
    func counting() throws {
        let model = SSD1306Model(powerOnSeed: nil)
        try model.writeBlock(register: 0x00, [0xAE, 0xAF])
        try model.writeByte(register: 0x80, 0xAE)
        #expect(model.writes == 2 && model.bytesWritten == 5)
        #expect(throws: HardwareError.self) { try model.writeBlock(register: 0x40, Array(repeating: 0, count: 33)) }
        model.inject(.noAcknowledge())
        #expect(throws: HardwareError.self) { try model.writeBlock(register: 0x00, [0xAF]) }
        #expect(model.writes == 2)
    }
}
