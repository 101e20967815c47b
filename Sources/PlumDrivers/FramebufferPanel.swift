public import PlumHardware

/// Memory laid out as a framebuffer: rows of bytes in the format ``info`` describes.
///
/// ``FramebufferDevice`` is the real one; tests keep the rows in an array.
public protocol FramebufferMemory {
    var info: FramebufferInfo { get }
    /// Writes `bytes` at the start of row `row`.
    mutating func write(row: Int, bytes: [UInt8]) throws(HardwareError)
    /// The ``FramebufferInfo/rowBytes`` bytes of row `row`.
    func read(row: Int) throws(HardwareError) -> [UInt8]
}

extension FramebufferDevice: FramebufferMemory {}

/// A colour panel behind a Linux framebuffer: shows a ``ColourBitmap`` in the memory's own
/// pixel format and writes only the rows that changed.
///
/// Formats: 8, 16, 24 and 32 bits per pixel with the channels wherever the kernel puts them
/// (RGB565, RGB888, XRGB8888, BGR…; each 8-bit component keeps its top `length` bits, and a
/// transparency channel is written opaque), 8-bit grayscale and palette framebuffers as a grey
/// level (BT.601 luma), and 1 bit per pixel lit where the luma is at least 128. Values wider
/// than a byte are little-endian, as on the Raspberry Pi.
///
/// An image of another size than the panel is drawn from the top left and clipped; the rest of
/// the panel is black.
public struct FramebufferPanel<Device: FramebufferMemory> {
    public private(set) var device: Device
    /// The packed rows last written whole, or nil when the next ``show(_:)`` must write them all.
    private var shown: [[UInt8]]?

    /// - Throws: ``HardwareError/Code/invalidConfiguration`` for a depth this panel cannot pack
    ///   (2, 4 or 12 bits per pixel, or over 32).
    public init(device: Device) throws(HardwareError) {
        let info = device.info
        guard Self.supports(info) else {
            throw HardwareError(
                .invalidConfiguration, operation: "packing pixels for", subject: info.description,
                detail: "\(info.bitsPerPixel) bits per pixel is not supported",
                hint: "choose 16 or 32 bits per pixel (fbset -depth 16, or the overlay's depth parameter)")
        }
        self.device = device
    }

    /// Whether ``packRow(_:row:info:)`` can pack this format.
    public static func supports(_ info: FramebufferInfo) -> Bool {
        info.bitsPerPixel == 1 || (info.bitsPerPixel % 8 == 0 && (8...32).contains(info.bitsPerPixel))
    }

    /// Shows `image`, writing the rows whose bytes differ from the last image shown.
    /// - Returns: the bytes written (0 when nothing changed).
    /// - Throws: the device's ``HardwareError``; the next call then writes every row again,
    ///   since what the panel holds is no longer known.
    @discardableResult
    public mutating func show(_ image: ColourBitmap) throws(HardwareError) -> Int {
        let info = device.info
        let previous = shown
        shown = nil
        var rows: [[UInt8]] = []
        rows.reserveCapacity(info.height)
        var written = 0
        for row in 0..<info.height {
            let bytes = Self.packRow(image, row: row, info: info)
            if previous?[row] != bytes {
                try device.write(row: row, bytes: bytes)
                written += bytes.count
            }
            rows.append(bytes)
        }
        shown = rows
        return written
    }

    /// What the panel holds now, read back from the device and unpacked (8-bit components;
    /// channels narrower than 8 bits are widened by repeating their top bits).
    public func readBack() throws(HardwareError) -> ColourBitmap {
        let info = device.info
        var image = ColourBitmap(width: info.width, height: info.height)
        for row in 0..<info.height {
            let colours = Self.unpackRow(try device.read(row: row), info: info)
            for (column, colour) in colours.enumerated() { image[column, row] = colour }
        }
        return image
    }

    // MARK: Packing

    /// Row `row` of `image` in the memory's format: ``FramebufferInfo/rowBytes`` bytes, black
    /// past the image's right and bottom edges.
    public static func packRow(_ image: ColourBitmap, row: Int, info: FramebufferInfo) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: info.rowBytes)
        let columns = row < image.height ? min(image.width, info.width) : 0
        if info.bitsPerPixel == 1 {
            let setIsLit = info.visual != .monoSetIsBlack
            for column in 0..<info.width {
                let lit = column < columns && image[column, row].luma >= 128
                guard lit == setIsLit else { continue }
                let bit =
                    info.monochromeBitOrder == .mostSignificantFirst ? 7 - column % 8 : column % 8
                bytes[column / 8] |= 1 << UInt8(bit)
            }
            return bytes
        }
        let size = info.bitsPerPixel / 8
        let black = pixelValue(.black, info: info)
        for column in 0..<info.width {
            let value = column < columns ? pixelValue(image[column, row], info: info) : black
            for index in 0..<size { bytes[column * size + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        return bytes
    }

    /// The colours of one packed row (``FramebufferInfo/width`` of them): the inverse of
    /// ``packRow(_:row:info:)`` up to the bits the format keeps.
    public static func unpackRow(_ bytes: [UInt8], info: FramebufferInfo) -> [ColourBitmap.Colour] {
        var colours: [ColourBitmap.Colour] = []
        colours.reserveCapacity(info.width)
        if info.bitsPerPixel == 1 {
            let setIsLit = info.visual != .monoSetIsBlack
            for column in 0..<info.width {
                let bit = info.monochromeBitOrder == .mostSignificantFirst ? 7 - column % 8 : column % 8
                let set = column / 8 < bytes.count && bytes[column / 8] & (1 << UInt8(bit)) != 0
                colours.append(set == setIsLit ? .white : .black)
            }
            return colours
        }
        let size = info.bitsPerPixel / 8
        for column in 0..<info.width {
            var value: UInt32 = 0
            for index in 0..<size where column * size + index < bytes.count {
                value |= UInt32(bytes[column * size + index]) << (8 * index)
            }
            if isGrey(info) {
                let level = component(from: value, info.red, width: info.bitsPerPixel)
                colours.append(ColourBitmap.Colour(red: level, green: level, blue: level))
            } else {
                colours.append(
                    ColourBitmap.Colour(
                        red: component(from: value, info.red), green: component(from: value, info.green),
                        blue: component(from: value, info.blue)))
            }
        }
        return colours
    }

    /// A grey level rather than colour channels: the kernel says grayscale, or all three
    /// channels are the same bits (a palette framebuffer, as vfb's 8 bpp default).
    static func isGrey(_ info: FramebufferInfo) -> Bool {
        info.grayscale || (info.red == info.green && info.green == info.blue)
    }

    /// One pixel's value, not yet split into bytes.
    static func pixelValue(_ colour: ColourBitmap.Colour, info: FramebufferInfo) -> UInt32 {
        if isGrey(info) {
            return field(UInt8(clamping: colour.luma), info.red, width: info.bitsPerPixel)
        }
        var value = field(colour.red, info.red) | field(colour.green, info.green) | field(colour.blue, info.blue)
        if info.transp.length > 0 { value |= field(0xFF, info.transp) }
        return value
    }

    /// An 8-bit component in a channel: its top `length` bits (repeated when the channel is
    /// wider than 8), at `offset`. A channel of length 0 takes `width` bits.
    static func field(_ component: UInt8, _ channel: FramebufferInfo.Channel, width: Int = 0) -> UInt32 {
        let length = channel.length > 0 ? min(channel.length, 32) : width
        guard length > 0, channel.offset < 32 else { return 0 }
        var bits = UInt32(component) >> UInt32(max(0, 8 - length))
        if length > 8 { bits = widen(UInt32(component), from: 8, to: length) }
        if channel.msbRight { bits = reversed(bits, length: length) }
        return bits << UInt32(channel.offset)
    }

    /// The 8-bit component of a channel's bits: `length` bits widened by repeating them, or
    /// the top 8 of a wider channel.
    static func component(from value: UInt32, _ channel: FramebufferInfo.Channel, width: Int = 0) -> UInt8 {
        let length = channel.length > 0 ? min(channel.length, 32) : width
        guard length > 0, channel.offset < 32 else { return 0 }
        let mask: UInt32 = length >= 32 ? .max : (1 << UInt32(length)) - 1
        var bits = (value >> UInt32(channel.offset)) & mask
        if channel.msbRight { bits = reversed(bits, length: length) }
        if length >= 8 { return UInt8(truncatingIfNeeded: bits >> UInt32(length - 8)) }
        return UInt8(truncatingIfNeeded: widen(bits, from: length, to: 8))
    }

    /// `bits` of `from` bits widened to `to` by repeating them from the top (5 bits 10110 →
    /// 8 bits 10110101), so that full scale stays full scale.
    static func widen(_ bits: UInt32, from: Int, to: Int) -> UInt32 {
        var result: UInt32 = 0
        var filled = 0
        while filled < to {
            let shift = to - filled - from
            result |= shift >= 0 ? bits << UInt32(shift) : bits >> UInt32(-shift)
            filled += from
        }
        return result
    }

    static func reversed(_ bits: UInt32, length: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<length where bits & (1 << UInt32(bit)) != 0 { result |= 1 << UInt32(length - 1 - bit) }
        return result
    }
}
