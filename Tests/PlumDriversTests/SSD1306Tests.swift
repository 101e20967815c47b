import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// An SMBus device that passes every transfer to another and keeps the block writes, as the
/// wire sees them: the command (control) byte and the bytes after it.
final class RecordingBus<Inner: SMBusDevice>: SMBusDevice {
    let inner: Inner
    private(set) var blocks: [(control: UInt8, bytes: [UInt8])] = []

    init(_ inner: Inner) { self.inner = inner }

    var subject: String { inner.subject }
    func readByte(register: UInt8) throws(HardwareError) -> UInt8 { try inner.readByte(register: register) }
    func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) {
        try inner.writeByte(register: register, value)
    }
    func readWord(register: UInt8) throws(HardwareError) -> UInt16 { try inner.readWord(register: register) }
    func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        try inner.writeWord(register: register, value)
    }
    func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        try inner.readBlock(register: register, count: count)
    }
    func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        blocks.append((register, bytes))
        try inner.writeBlock(register: register, bytes)
    }

    func forget() { blocks.removeAll() }
}

/// A panel size and mounting.
struct PanelCase: Sendable, CustomTestStringConvertible {
    var height: Int
    var rotated: Bool
    var testDescription: String { "128×\(height)\(rotated ? ", rotated 180°" : "")" }

    static let all = [
        PanelCase(height: 64, rotated: false), PanelCase(height: 64, rotated: true),
        PanelCase(height: 32, rotated: false), PanelCase(height: 32, rotated: true)
    ]
}

typealias RecordedPanel = SSD1306<RecordingBus<SSD1306Model>>

/// A frame with something in every page and column: a border, a diagonal and a pattern.
func testFrame(height: Int, seed: Int = 0) -> MonoBitmap {
    var frame = MonoBitmap(width: 128, height: height)
    for y in 0..<height {
        for x in 0..<128 {
            frame[x, y] =
                x == 0 || y == 0 || x == 127 || y == height - 1 || x == y + seed || (x * 7 + y * 13 + seed) % 11 == 0
        }
    }
    return frame
}

/// The frame as a viewer sees it turned half a turn.
func rotated180(_ frame: MonoBitmap) -> MonoBitmap {
    var turned = MonoBitmap(width: frame.width, height: frame.height)
    for y in 0..<frame.height {
        for x in 0..<frame.width { turned[frame.width - 1 - x, frame.height - 1 - y] = frame[x, y] }
    }
    return turned
}

/// A model and a started driver on it, with the start's transfers forgotten.
func startedPanel(
    _ geometry: RecordedPanel.Geometry = .w128h64, rotated: Bool = false
) throws -> (SSD1306Model, RecordingBus<SSD1306Model>, RecordedPanel) {
    let model = SSD1306Model(height: geometry == .w128h64 ? 64 : 32)
    let bus = RecordingBus(model)
    var driver = SSD1306(bus: bus, geometry: geometry, rotated180: rotated)
    try driver.start()
    bus.forget()
    return (model, bus, driver)
}

@Suite("SSD1306 driver against the chip model")
struct SSD1306Tests {
    @Test("start sends the application note's sequence, clears the random power-on GDDRAM, then turns on")
    func startSequence() throws {
        let model = SSD1306Model(height: 64)
        #expect(model.gddram.litCount > 0, "the model powers up with random memory")
        let bus = RecordingBus(model)
        var driver = SSD1306(bus: bus, geometry: .w128h64)
        try driver.start()
        let first = try #require(bus.blocks.first)
        #expect(first.control == 0x00)
        #expect(
            first.bytes == [
                0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x02, 0xA1, 0xC8, 0xDA, 0x12,
                0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x2E
            ])
        #expect(bus.blocks.last.map { [$0.control] + $0.bytes } == [0x00, 0xAF], "the display goes on last")
        #expect(model.gddram.litCount == 0, "all eight pages cleared")
        #expect(model.displayOn && model.chargePumpOn && model.multiplex == 64)
        #expect(model.unknownCommands.isEmpty)
        #expect(model.frame == MonoBitmap(width: 128, height: 64))
        #expect(driver.lastFrame == MonoBitmap(width: 128, height: 64))
    }

    @Test("a 128×32 panel gets multiplex 1Fh and sequential COM pins (02h)")
    func startSequence32() throws {
        let bus = RecordingBus(SSD1306Model(height: 32))
        var driver = SSD1306(bus: bus, geometry: .w128h32)
        try driver.start()
        let setup = try #require(bus.blocks.first).bytes
        #expect(setup[3...4] == [0xA8, 0x1F])
        #expect(setup[14...15] == [0xDA, 0x02])
    }

    @Test(
        "the frame lands bit for bit on the model's panel, for both sizes and both mountings", arguments: PanelCase.all)
    func frameLands(_ panel: PanelCase) throws {
        var (model, _, driver) = try startedPanel(panel.height == 64 ? .w128h64 : .w128h32, rotated: panel.rotated)
        let frame = testFrame(height: panel.height)
        try driver.show(frame)
        #expect(model.frame == (panel.rotated ? rotated180(frame) : frame))
        // And a second, different frame over it.
        let next = testFrame(height: panel.height, seed: 5)
        try driver.show(next)
        #expect(model.frame == (panel.rotated ? rotated180(next) : next))
        #expect(model.unknownCommands.isEmpty)
    }

    @Test("showing the same frame again puts no byte on the bus")
    func identicalFrameSendsNothing() throws {
        var (_, bus, driver) = try startedPanel()
        let frame = testFrame(height: 64)
        try driver.show(frame)
        bus.forget()
        let before = driver.bytesSent
        #expect(try driver.show(frame) == 0)
        #expect(bus.blocks.isEmpty)
        #expect(driver.bytesSent == before)
    }

    @Test("one changed pixel sends one page and column address and one data byte: 4 + 2 bytes")
    func onePixel() throws {
        var (model, bus, driver) = try startedPanel()
        var frame = MonoBitmap(width: 128, height: 64)
        frame[77, 21] = true
        // Row 21 is bit 5 of page 2; column 77 is 4Dh: low nibble Dh, high nibble 4h.
        #expect(try driver.show(frame) == 6)
        #expect(bus.blocks.count == 2)
        #expect(bus.blocks[0].control == 0x00 && bus.blocks[0].bytes == [0xB2, 0x0D, 0x14])
        #expect(bus.blocks[1].control == 0x40 && bus.blocks[1].bytes == [0x20])
        #expect(model.frame == frame)
    }

    @Test("no transfer carries more than 32 bytes after its control byte")
    func blockLimit() throws {
        let model = SSD1306Model(height: 64)
        let bus = RecordingBus(model)
        var driver = SSD1306(bus: bus, geometry: .w128h64)
        try driver.start()
        try driver.show(testFrame(height: 64))
        driver.lastFrame = nil
        try driver.show(testFrame(height: 64, seed: 3))
        #expect(!bus.blocks.isEmpty)
        #expect(bus.blocks.allSatisfy { (1...32).contains($0.bytes.count) })
    }

    @Test(
        "a whole frame costs per page 4 address bytes and 4 blocks of 1 + 32: 1088 bytes for 128×64, 544 for 128×32",
        arguments: [(RecordedPanel.Geometry.w128h64, 1088), (.w128h32, 544)])
    func wholeFrame(_ geometry: RecordedPanel.Geometry, _ expected: Int) throws {
        var (model, bus, driver) = try startedPanel(geometry)
        let height = geometry == .w128h64 ? 64 : 32
        // 128 columns in blocks of 32: 4 × (1 + 32) = 132, plus 1 + 3 for the address.
        #expect((1 + 3 + 4 * (1 + 32)) * height / 8 == expected)
        driver.lastFrame = nil
        let frame = testFrame(height: height)
        #expect(try driver.show(frame) == expected)
        #expect(model.frame == frame)
        #expect(bus.blocks.reduce(0) { $0 + 1 + $1.bytes.count } == expected)
    }

    @Test("runs in a page merge while the gap costs no more than a new address (gap 5 merges, gap 6 does not)")
    func runMerging() throws {
        for gap in [5, 6] {
            var (model, bus, driver) = try startedPanel()
            var frame = MonoBitmap(width: 128, height: 64)
            frame[10, 3] = true
            frame[11 + gap, 3] = true
            let sent = try driver.show(frame)
            let addresses = bus.blocks.filter { $0.control == 0x00 }.count
            if gap == 5 {
                // One address (4) and one block of 1 + 7 bytes.
                #expect(sent == 4 + 1 + 7 && addresses == 1)
            } else {
                // Two runs of one byte: 2 × (4 + 2); merged would be 4 + 1 + 8 = 13.
                #expect(sent == 12 && addresses == 2)
            }
            #expect(model.frame == frame)
        }
    }

    @Test("after a failed write the next show resends the whole frame and the panel is right again")
    func failedWriteResendsAll() throws {
        var (model, _, driver) = try startedPanel()
        try driver.show(testFrame(height: 64))
        model.inject(.transientIOError(count: 1))
        let next = testFrame(height: 64, seed: 9)
        #expect(throws: HardwareError.self) { try driver.show(next) }
        #expect(driver.lastFrame == nil)
        #expect(try driver.show(next) == 8 * (4 + 4 * 33))
        #expect(model.frame == next)
    }

    @Test("a frame of the wrong size is refused with a message naming both sizes")
    func wrongSize() throws {
        var (_, bus, driver) = try startedPanel(.w128h64)
        let error = try #require(throws: HardwareError.self) { try driver.show(MonoBitmap(width: 128, height: 32)) }
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("128×32") && error.description.contains("128×64"))
        #expect(bus.blocks.isEmpty)
    }

    @Test("contrast and display on/off reach the chip; off reads status 40h and shows a dark panel")
    func contrastAndPower() throws {
        var (model, _, driver) = try startedPanel()
        try driver.show(testFrame(height: 64))
        try driver.setContrast(0x20)
        #expect(model.contrast == 0x20 && driver.contrast == 0x20)
        try driver.setDisplayOn(false)
        #expect(!model.displayOn)
        #expect(try model.readByte(register: 0x00) == 0x40)
        #expect(model.frame.litCount == 0)
        try driver.setDisplayOn(true)
        #expect(try model.readByte(register: 0x00) == 0x00)
        #expect(model.frame == testFrame(height: 64))
    }
}
