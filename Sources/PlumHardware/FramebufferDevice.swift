internal import CPlumShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the kernel says of a framebuffer's memory: its size, row pitch and pixel format.
///
/// Mirrors `struct fb_var_screeninfo` (resolution, depth, channel bitfields, `grayscale`) and
/// `struct fb_fix_screeninfo` (`line_length`, `smem_len`, `visual`, `id`) from
/// `linux/fb.h`, as FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO fill them. Pixels of 8 bits or
/// more are stored in the machine's byte order, which is little-endian on the Raspberry Pi.
public struct FramebufferInfo: Hashable, Sendable, CustomStringConvertible {
    /// One colour channel of a pixel value (`struct fb_bitfield`): `length` bits from bit `offset`.
    public struct Channel: Hashable, Sendable {
        public var offset: Int
        public var length: Int
        /// The channel's most significant bit is on the right (`msb_right`); almost never set.
        public var msbRight: Bool

        public init(offset: Int, length: Int, msbRight: Bool = false) {
            self.offset = offset
            self.length = length
            self.msbRight = msbRight
        }

        /// A channel the format does not have (`transp` of RGB565).
        public static let none = Channel(offset: 0, length: 0)
    }

    /// How pixel values map to colours (`fb_fix_screeninfo.visual`, the kernel's `FB_VISUAL_*`).
    public struct Visual: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// FB_VISUAL_MONO01: a set bit is black, a clear bit white.
        public static let monoSetIsBlack = Visual(rawValue: 0)
        /// FB_VISUAL_MONO10: a set bit is white (lit).
        public static let monoSetIsWhite = Visual(rawValue: 1)
        /// FB_VISUAL_TRUECOLOR: the channels are the colour.
        public static let trueColor = Visual(rawValue: 2)
        /// FB_VISUAL_PSEUDOCOLOR: the value indexes a palette.
        public static let pseudoColor = Visual(rawValue: 3)
        /// FB_VISUAL_DIRECTCOLOR: each channel indexes its own ramp.
        public static let directColor = Visual(rawValue: 4)
        /// FB_VISUAL_STATIC_PSEUDOCOLOR: a fixed palette.
        public static let staticPseudoColor = Visual(rawValue: 5)
    }

    /// Where the pixels of a one-bit row sit in a byte. The kernel does not report it: fbdev
    /// draws the leftmost pixel in the most significant bit unless the driver was built with
    /// `CONFIG_FB_CFB_REV_PIXELS_IN_BYTE`.
    public enum BitOrder: Hashable, Sendable {
        case mostSignificantFirst
        case leastSignificantFirst
    }

    /// Visible pixels per row (`xres`).
    public var width: Int
    /// Visible rows (`yres`).
    public var height: Int
    public var bitsPerPixel: Int
    /// Bytes from the start of one row to the next (`line_length`), at least ``rowBytes``.
    public var lineLength: Int
    /// Bytes of framebuffer memory (`smem_len`).
    public var memoryLength: Int
    public var red: Channel
    public var green: Channel
    public var blue: Channel
    public var transp: Channel
    /// The kernel's `grayscale` is 1: a value is a grey level, in the `red` channel's bits.
    public var grayscale: Bool
    public var visual: Visual
    /// The driver's name (`fb_fix_screeninfo.id`), such as "Virtual FB" or "simple".
    public var name: String
    public var monochromeBitOrder: BitOrder

    /// - Parameters:
    ///   - lineLength: bytes per row in memory; `nil` is the visible row rounded up to a byte.
    ///   - memoryLength: `nil` is `lineLength × height`.
    public init(
        width: Int, height: Int, bitsPerPixel: Int, lineLength: Int? = nil, memoryLength: Int? = nil,
        red: Channel, green: Channel, blue: Channel, transp: Channel = .none,
        grayscale: Bool = false, visual: Visual = .trueColor, name: String = "",
        monochromeBitOrder: BitOrder = .mostSignificantFirst
    ) {
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        let lineLength = lineLength ?? (width * bitsPerPixel + 7) / 8
        self.lineLength = lineLength
        self.memoryLength = memoryLength ?? lineLength * height
        self.red = red
        self.green = green
        self.blue = blue
        self.transp = transp
        self.grayscale = grayscale
        self.visual = visual
        self.name = name
        self.monochromeBitOrder = monochromeBitOrder
    }

    /// The bytes that hold one visible row: `width × bitsPerPixel` bits rounded up to a byte.
    public var rowBytes: Int { (width * bitsPerPixel + 7) / 8 }

    /// "Virtual FB 640×480, 32 bpp, line 2560 bytes".
    public var description: String {
        let label = name.isEmpty ? "framebuffer" : name
        return "\(label) \(width)×\(height), \(bitsPerPixel) bpp, line \(lineLength) bytes"
    }
}

/// A Linux framebuffer, `/dev/fbN`, whose rows are written and read as bytes in its own format.
///
/// Opens the device read-write, asks the kernel for its format (FBIOGET_VSCREENINFO and
/// FBIOGET_FSCREENINFO, through the shim's `plum_fb_get_info`) and maps its `smem_len` bytes
/// shared. Some drivers refuse `mmap(2)`; then rows go through `pwrite(2)` and `pread(2)` at
/// their offsets instead. Row 0 is the start of the memory: the panning offsets are not used.
/// The mapping and the descriptor are released when the device is deinitialised.
///
/// `@unchecked Sendable`: the stored state (descriptor, mapping, format) never changes after
/// `init`. The pixels themselves are memory shared with the kernel and every other process
/// that maps the device, so no lock here could make them consistent; one display loop owns a
/// device and writes whole rows.
public final class FramebufferDevice: @unchecked Sendable {
    public let path: String
    public let info: FramebufferInfo
    /// Whether rows go through the shared mapping (`true`) or `pwrite`/`pread` (`false`).
    public let isMemoryMapped: Bool
    private let fd: Int32
    private let mapping: UnsafeMutableRawBufferPointer?

    /// Opens the framebuffer at `path` and reads its format.
    /// - Parameters:
    ///   - path: the device, such as `/dev/fb0`.
    ///   - mapMemory: `false` writes through `pwrite` even when the driver could map.
    /// - Throws: ``HardwareError``: ENOENT (`.notFound`) saying how to get a framebuffer,
    ///   EACCES with the group 'video', a failed FBIOGET_VSCREENINFO (ENOTTY for a file that is
    ///   not a framebuffer), `.malformed` for a format the kernel cannot mean.
    public init(path: String, mapMemory: Bool = true) throws(HardwareError) {
        let fd: Int32
        switch Syscalls.openFile(path, flags: O_RDWR) {
        case .success(let value): fd = value
        case .failure(let errno): throw HardwareError.framebufferOpen(path: path, errno: errno)
        }
        let info: FramebufferInfo
        switch Self.readInfo(fd) {
        case .success(let value): info = value
        case .failure(let errno):
            let request = Syscalls.framebufferFailedRequest()
            Syscalls.closeFile(fd)
            throw HardwareError.framebufferInfo(path: path, request: request, errno: errno)
        }
        guard info.width > 0, info.height > 0, info.bitsPerPixel > 0, info.lineLength >= info.rowBytes,
            info.memoryLength >= info.lineLength * info.height
        else {
            Syscalls.closeFile(fd)
            throw HardwareError(
                .malformed, operation: "reading the format of", subject: path,
                detail: "\(info) in \(info.memoryLength) bytes of memory",
                hint: "the driver reports no usable mode; set one with fbset or the panel's overlay")
        }
        self.path = path
        self.info = info
        self.fd = fd
        // A driver without mmap (ENODEV, EINVAL) is no failure: rows go through pwrite instead.
        let mapped = mapMemory ? try? Syscalls.mapShared(fd, length: info.memoryLength).get() : nil
        self.mapping = mapped
        self.isMemoryMapped = mapped != nil
    }

    deinit {
        if let mapping { Syscalls.unmap(mapping) }
        Syscalls.closeFile(fd)
    }

    /// Writes `bytes` at the start of row `row`, at most ``FramebufferInfo/lineLength`` of them.
    /// - Throws: ``HardwareError``: `.invalidRequest` for a row outside the panel or too many
    ///   bytes, the errno of `pwrite` otherwise.
    public func write(row: Int, bytes: [UInt8]) throws(HardwareError) {
        try checkRow(row, count: bytes.count, "writing")
        if case .failure(let errno) = writeRow(row, bytes) {
            throw HardwareError(.systemCall, operation: "writing row \(row) of", subject: path, errno: errno)
        }
    }

    /// The ``FramebufferInfo/rowBytes`` bytes of visible row `row`.
    /// - Throws: ``HardwareError``: `.invalidRequest` for a row outside the panel, the errno of
    ///   `pread` otherwise.
    public func read(row: Int) throws(HardwareError) -> [UInt8] {
        try checkRow(row, count: info.rowBytes, "reading")
        switch readRow(row) {
        case .success(let bytes): return bytes
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "reading row \(row) of", subject: path, errno: errno)
        }
    }

    private func checkRow(_ row: Int, count: Int, _ operation: String) throws(HardwareError) {
        guard (0..<info.height).contains(row), count <= info.lineLength else {
            throw HardwareError(
                .invalidRequest, operation: "\(operation) row \(row) of", subject: path,
                detail: "\(count) bytes; the panel has rows 0…\(info.height - 1) of \(info.lineLength) bytes")
        }
    }

    // MARK: The internal layer

    static func readInfo(_ fd: Int32) -> Result<FramebufferInfo, Errno> {
        Syscalls.framebufferInfo(fd).map { raw in
            let name = withUnsafeBytes(of: raw.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return FramebufferInfo(
                width: Int(raw.xres), height: Int(raw.yres), bitsPerPixel: Int(raw.bits_per_pixel),
                lineLength: Int(raw.line_length), memoryLength: Int(raw.smem_len),
                red: channel(raw.red), green: channel(raw.green), blue: channel(raw.blue),
                transp: channel(raw.transp), grayscale: raw.grayscale == 1,
                visual: FramebufferInfo.Visual(rawValue: raw.visual), name: name)
        }
    }

    private static func channel(_ field: plum_fb_bitfield) -> FramebufferInfo.Channel {
        FramebufferInfo.Channel(offset: Int(field.offset), length: Int(field.length), msbRight: field.msb_right != 0)
    }

    func writeRow(_ row: Int, _ bytes: [UInt8]) -> Result<Void, Errno> {
        let offset = row * info.lineLength
        if let mapping {
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: mapping[offset..<offset + source.count])
                    .copyMemory(from: source)
            }
            return .success(())
        }
        return bytes.withUnsafeBytes { source in
            var done = 0
            while done < source.count {
                let rest = UnsafeRawBufferPointer(rebasing: source[done...])
                switch Syscalls.positionedWrite(fd, rest, at: offset + done) {
                case .success(0): return .failure(.noSpace)
                case .success(let count): done += count
                case .failure(let errno): return .failure(errno)
                }
            }
            return .success(())
        }
    }

    func readRow(_ row: Int) -> Result<[UInt8], Errno> {
        let offset = row * info.lineLength
        let count = info.rowBytes
        if let mapping { return .success(Array(mapping[offset..<offset + count])) }
        var bytes = [UInt8](repeating: 0, count: count)
        let result: Result<Void, Errno> = bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
                switch Syscalls.positionedRead(fd, into: rest, at: offset + done) {
                case .success(0): return .failure(.ioError)
                case .success(let read): done += read
                case .failure(let errno): return .failure(errno)
                }
            }
            return .success(())
        }
        return result.map { bytes }
    }
}

// MARK: Errors

extension HardwareError {
    /// A framebuffer could not be opened.
    static func framebufferOpen(path: String, errno: Errno) -> HardwareError {
        var code: Code = .systemCall
        let hint: String?
        switch errno {
        case .noSuchFileOrDirectory:
            code = .notFound
            hint =
                "no framebuffer at \(path); enable the panel's dtoverlay in config.txt, "
                + "or `modprobe vfb vfb_enable=1` to try one"
        case .permissionDenied, .operationNotPermitted:
            hint = "add the user to group 'video' (sudo usermod -aG video $USER, then log in again)"
        default:
            hint = nil
        }
        return HardwareError(code, operation: "opening", subject: path, errno: errno, hint: hint)
    }

    /// FBIOGET_VSCREENINFO or FBIOGET_FSCREENINFO failed on an open device.
    static func framebufferInfo(path: String, request: String, errno: Errno) -> HardwareError {
        let hint: String? =
            errno == .notATypewriter || errno == .invalidArgument
            ? "\(path) is not a framebuffer device; give /dev/fbN (ls /sys/class/graphics lists them)" : nil
        let name = request.isEmpty ? "FBIOGET_VSCREENINFO" : request
        return HardwareError(.systemCall, operation: "\(name) on", subject: path, errno: errno, hint: hint)
    }
}

// MARK: The thin layer (plum_fb_*, mmap, pread, pwrite)

extension Syscalls {
    static func framebufferInfo(_ fd: Int32) -> Result<plum_fb_info, Errno> {
        var info = plum_fb_info()
        return retrying { plum_fb_get_info(fd, &info) }.map { _ in info }
    }

    /// The ioctl that the last failed ``framebufferInfo(_:)`` on this thread stopped at.
    static func framebufferFailedRequest() -> String { String(cString: plum_fb_failed_request()) }

    /// `mmap(2)` of `length` bytes from offset 0, shared and writable.
    static func mapShared(_ fd: Int32, length: Int) -> Result<UnsafeMutableRawBufferPointer, Errno> {
        let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return .failure(.current) }
        return .success(UnsafeMutableRawBufferPointer(start: address, count: length))
    }

    static func unmap(_ mapping: UnsafeMutableRawBufferPointer) {
        _ = munmap(mapping.baseAddress, mapping.count)
    }

    static func positionedWrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
        retrying { pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset)) }
    }

    static func positionedRead(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) -> Result<Int, Errno> {
        retrying { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }
}
