import PlumHardware
import Testing

@testable import PlumDrivers

/// Framebuffer memory in an array, recording which rows were written.
struct MemoryFramebuffer: FramebufferMemory {
    /// Makes the next write fail, as a driver's EIO would.
    final class Fault {
        var failNextWrite = false
    }

    let info: FramebufferInfo
    var rows: [[UInt8]]
    var writtenRows: [Int] = []
    let fault = Fault()

    init(_ info: FramebufferInfo) {
        self.info = info
        rows = Array(repeating: Array(repeating: 0xAA, count: info.lineLength), count: info.height)
    }

    mutating func write(row: Int, bytes: [UInt8]) throws(HardwareError) {
        if fault.failNextWrite {
            fault.failNextWrite = false
            throw HardwareError(.systemCall, operation: "writing row \(row) of", subject: "memory", errno: .ioError)
        }
        rows[row].replaceSubrange(0..<bytes.count, with: bytes)
        writtenRows.append(row)
    }

    func read(row: Int) throws(HardwareError) -> [UInt8] { Array(rows[row].prefix(info.rowBytes)) }
}

/// The formats the tests use, with the channels where the kernel's drivers put them.
enum Formats {
    typealias Channel = FramebufferInfo.Channel

    static func rgb565(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 16,
            red: Channel(offset: 11, length: 5), green: Channel(offset: 5, length: 6),
            blue: Channel(offset: 0, length: 5))
    }

    static func rgb888(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 24,
            red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8),
            blue: Channel(offset: 0, length: 8))
    }

    static func xrgb8888(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 32, lineLength: width * 4 + 8,
            red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8),
            blue: Channel(offset: 0, length: 8))
    }

    /// vfb at 32 bpp: ARGB with an 8-bit transparency channel.
    static func vfb32(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 32,
            red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8),
            blue: Channel(offset: 0, length: 8), transp: Channel(offset: 24, length: 8), name: "Virtual FB")
    }

    static func bgr8888(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 32,
            red: Channel(offset: 0, length: 8), green: Channel(offset: 8, length: 8),
            blue: Channel(offset: 16, length: 8))
    }

    static func grey8(width: Int = 4, height: Int = 3) -> FramebufferInfo {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 8,
            red: Channel(offset: 0, length: 8), green: Channel(offset: 0, length: 8),
            blue: Channel(offset: 0, length: 8), grayscale: true)
    }

    static func mono(width: Int, height: Int = 1, visual: FramebufferInfo.Visual = .monoSetIsWhite)
        -> FramebufferInfo
    {
        FramebufferInfo(
            width: width, height: height, bitsPerPixel: 1,
            red: Channel(offset: 0, length: 1), green: Channel(offset: 0, length: 1),
            blue: Channel(offset: 0, length: 1), visual: visual)
    }
}

@Suite("Framebuffer panel: packing, changed rows and reading back")
struct FramebufferPanelTests {
    struct PackCase: Sendable, CustomTestStringConvertible {
        var format: String
        var info: FramebufferInfo
        var rgb: UInt32
        /// The pixel's bytes in memory, worked out by hand from the channels and little-endian order.
        var bytes: [UInt8]
        var testDescription: String { "\(format) 0x\(String(rgb, radix: 16))" }
    }

    static let packCases: [PackCase] = [
        // RGB565: red 5 bits at 11, green 6 at 5, blue 5 at 0.
        PackCase(format: "RGB565", info: Formats.rgb565(), rgb: 0xFF0000, bytes: [0x00, 0xF8]),
        PackCase(format: "RGB565", info: Formats.rgb565(), rgb: 0x00FF00, bytes: [0xE0, 0x07]),
        PackCase(format: "RGB565", info: Formats.rgb565(), rgb: 0x0000FF, bytes: [0x1F, 0x00]),
        // 0x12 >> 3 = 2, 0x34 >> 2 = 13, 0x56 >> 3 = 10: 2 << 11 | 13 << 5 | 10 = 0x11AA.
        PackCase(format: "RGB565", info: Formats.rgb565(), rgb: 0x123456, bytes: [0xAA, 0x11]),
        PackCase(format: "RGB888", info: Formats.rgb888(), rgb: 0x123456, bytes: [0x56, 0x34, 0x12]),
        PackCase(format: "XRGB8888", info: Formats.xrgb8888(), rgb: 0x123456, bytes: [0x56, 0x34, 0x12, 0x00]),
        PackCase(format: "vfb ARGB8888", info: Formats.vfb32(), rgb: 0x123456, bytes: [0x56, 0x34, 0x12, 0xFF]),
        PackCase(format: "BGR8888", info: Formats.bgr8888(), rgb: 0x123456, bytes: [0x12, 0x34, 0x56, 0x00]),
        // BT.601: (299 × 0x12 + 587 × 0x34 + 114 × 0x56) / 1000 = 45710 / 1000 = 45.
        PackCase(format: "grey 8", info: Formats.grey8(), rgb: 0x123456, bytes: [45]),
        PackCase(format: "grey 8", info: Formats.grey8(), rgb: 0xFFFFFF, bytes: [255])
    ]

    @Test("each depth packs a colour into the bytes its channel offsets and lengths say", arguments: packCases)
    func packing(_ test: PackCase) {
        var image = ColourBitmap(width: 4, height: 3)
        image[0, 1] = ColourBitmap.Colour(rgb: test.rgb)
        let row = FramebufferPanel<MemoryFramebuffer>.packRow(image, row: 1, info: test.info)
        let size = test.info.bitsPerPixel / 8
        #expect(row.count == 4 * size)
        #expect(Array(row[0..<size]) == test.bytes)
        let empty = ColourBitmap(width: 4, height: 3)
        let black = FramebufferPanel<MemoryFramebuffer>.packRow(empty, row: 0, info: test.info)
        #expect(Array(row[size...]) == Array(black[size...]))
    }

    @Test("black is all zero bits except an opaque transparency channel")
    func black() {
        typealias Panel = FramebufferPanel<MemoryFramebuffer>
        let empty = ColourBitmap(width: 4, height: 3)
        #expect(Panel.packRow(empty, row: 0, info: Formats.rgb565()) == Array(repeating: 0, count: 8))
        #expect(
            Panel.packRow(empty, row: 0, info: Formats.vfb32())
                == Array(repeating: [0, 0, 0, 0xFF], count: 4).flatMap { $0 })
    }

    @Test("one bit per pixel: luma ≥ 128 is lit, the leftmost pixel in the top bit, MONO01 inverted")
    func monochrome() {
        var image = ColourBitmap(width: 10, height: 1)
        for column in [0, 2, 7, 8] { image[column, 0] = .white }
        image[9, 0] = ColourBitmap.Colour(rgb: 0x808080)  // luma 128: lit
        image[1, 0] = ColourBitmap.Colour(rgb: 0x7F7F7F)  // luma 127: dark
        typealias Panel = FramebufferPanel<MemoryFramebuffer>
        // Pixels 0, 2, 7 → 1010_0001; pixels 8 and 9 → 11 then padding.
        #expect(Panel.packRow(image, row: 0, info: Formats.mono(width: 10)) == [0b1010_0001, 0b1100_0000])
        // FB_VISUAL_MONO01: a set bit is black, so dark pixels (and the panel past the image) are set.
        #expect(
            Panel.packRow(image, row: 0, info: Formats.mono(width: 12, visual: .monoSetIsBlack))
                == [0b0101_1110, 0b0011_0000])
        var lsb = Formats.mono(width: 10)
        lsb.monochromeBitOrder = .leastSignificantFirst
        #expect(Panel.packRow(image, row: 0, info: lsb) == [0b1000_0101, 0b0000_0011])
    }

    @Test("a first image writes every row; the same again writes none; one changed pixel writes its row")
    func changedRows() throws {
        var panel = try FramebufferPanel(device: MemoryFramebuffer(Formats.rgb565()))
        var image = ColourBitmap(width: 4, height: 3, background: .grey)
        #expect(try panel.show(image) == 3 * 8)
        #expect(panel.device.writtenRows == [0, 1, 2])
        #expect(try panel.show(image) == 0)
        image[3, 1] = .yellow
        #expect(try panel.show(image) == 8)
        #expect(panel.device.writtenRows == [0, 1, 2, 1])
    }

    @Test("after a failed write the next image is written whole, since the panel's contents are unknown")
    func failedWriteRedrawsAll() throws {
        var panel = try FramebufferPanel(device: MemoryFramebuffer(Formats.rgb565()))
        let first = ColourBitmap(width: 4, height: 3, background: .grey)
        try panel.show(first)
        var second = first
        second[0, 2] = .red
        panel.device.fault.failNextWrite = true
        #expect(throws: HardwareError.self) { try panel.show(second) }
        #expect(try panel.show(second) == 3 * 8)
        #expect(try panel.readBack() == FramebufferPanelTests.quantized565(second))
    }

    @Test("an image of another size is drawn from the top left, clipped, with the rest of the panel black")
    func otherSizes() throws {
        var panel = try FramebufferPanel(device: MemoryFramebuffer(Formats.rgb888()))
        try panel.show(ColourBitmap(width: 2, height: 2, background: .white))
        var expected = ColourBitmap(width: 4, height: 3)
        expected.fill(x: 0, y: 0, width: 2, height: 2, .white)
        #expect(try panel.readBack() == expected)
        try panel.show(ColourBitmap(width: 9, height: 7, background: .green))
        #expect(try panel.readBack() == ColourBitmap(width: 4, height: 3, background: .green))
    }

    /// A picture with every channel at several levels.
    static func picture(width: Int, height: Int) -> ColourBitmap {
        var image = ColourBitmap(width: width, height: height)
        for row in 0..<height {
            for column in 0..<width {
                let value = UInt32(truncatingIfNeeded: (row * 37 + column * 91) * 0x010307 + column * 0x3F)
                image[column, row] = ColourBitmap.Colour(rgb: value & 0xFFFFFF)
            }
        }
        return image
    }

    /// What RGB565 keeps of `image`: each component's top bits, widened again by repeating them.
    static func quantized565(_ image: ColourBitmap) -> ColourBitmap {
        var result = image
        for row in 0..<image.height {
            for column in 0..<image.width {
                let colour = image[column, row]
                let red = colour.red >> 3
                let green = colour.green >> 2
                let blue = colour.blue >> 3
                result[column, row] = ColourBitmap.Colour(
                    red: red << 3 | red >> 2, green: green << 2 | green >> 4, blue: blue << 3 | blue >> 2)
            }
        }
        return result
    }

    struct RoundTripCase: Sendable, CustomTestStringConvertible {
        var format: String
        var info: FramebufferInfo
        var testDescription: String { format }
    }

    static let roundTripCases: [RoundTripCase] = [
        RoundTripCase(format: "RGB565", info: Formats.rgb565(width: 16, height: 9)),
        RoundTripCase(format: "RGB888", info: Formats.rgb888(width: 16, height: 9)),
        RoundTripCase(format: "XRGB8888, padded lines", info: Formats.xrgb8888(width: 16, height: 9)),
        RoundTripCase(format: "vfb ARGB8888", info: Formats.vfb32(width: 16, height: 9)),
        RoundTripCase(format: "BGR8888", info: Formats.bgr8888(width: 16, height: 9))
    ]

    @Test("what is read back is the image shown, up to the bits RGB565 drops", arguments: roundTripCases)
    func roundTrip(_ test: RoundTripCase) throws {
        let image = FramebufferPanelTests.picture(width: 16, height: 9)
        var panel = try FramebufferPanel(device: MemoryFramebuffer(test.info))
        try panel.show(image)
        let expected = test.info.bitsPerPixel == 16 ? FramebufferPanelTests.quantized565(image) : image
        #expect(try panel.readBack() == expected)
    }

    @Test("one-bit and grey panels read back as what they show: white or black, and grey levels")
    func monoAndGreyReadBack() throws {
        var image = ColourBitmap(width: 12, height: 2)
        image.fill(x: 3, y: 0, width: 5, height: 1, .white)
        image[11, 1] = .yellow
        var mono = try FramebufferPanel(device: MemoryFramebuffer(Formats.mono(width: 12, height: 2)))
        try mono.show(image)
        var lit = ColourBitmap(width: 12, height: 2)
        lit.fill(x: 3, y: 0, width: 5, height: 1, .white)
        lit[11, 1] = .white
        #expect(try mono.readBack() == lit)

        var grey = try FramebufferPanel(device: MemoryFramebuffer(Formats.grey8(width: 12, height: 2)))
        try grey.show(image)
        let level = UInt8(ColourBitmap.Colour.yellow.luma)
        #expect(try grey.readBack()[11, 1] == ColourBitmap.Colour(red: level, green: level, blue: level))
    }

    @Test("a depth the panel cannot pack is refused when the panel is made")
    func unsupportedDepth() {
        var info = Formats.rgb565()
        info.bitsPerPixel = 4
        let error = #expect(throws: HardwareError.self) { try FramebufferPanel(device: MemoryFramebuffer(info)) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail?.contains("4 bits per pixel") == true)
    }
}
