public import PlumHardware

/// A driver for the Solomon Systech SSD1306 OLED controller on I2C (address 0x3C or 0x3D),
/// as on the common 128 × 64 (0.96-inch) and 128 × 32 (0.91-inch) modules, generic over its bus.
///
/// - **Start** (datasheet §9 and the application note's software initialisation): display off,
///   clock, multiplex, offset, start line, charge pump, page addressing, the orientation, the
///   module's COM pin wiring, contrast, pre-charge, V_COMH, resume, normal, scroll off; then it
///   clears all eight pages of GDDRAM and only then turns the display on, so the panel never
///   shows the random power-on memory.
/// - **Refresh** (``show(_:)``): page addressing (§10.1.3). For each page it compares the new
///   frame with the last one shown and sends only the columns that changed, each run preceded by
///   its page and column address (B0h + page, 00h + low nibble, 10h + high nibble).
/// - **Transfers**: every write is one SMBus I2C block write whose command byte is the I2C
///   control byte (§8.1.5.2: 00h, commands follow; 40h, GDDRAM data follow) with at most 32
///   bytes after it, since that is all i2c-dev's block write carries.
///
/// A run of `n` data bytes costs `4 + n + ⌈n / 32⌉` bytes on the wire: the address transfer
/// (control byte and three commands) and a control byte per data transfer. Two runs in a page
/// are sent as one, the unchanged gap resent, whenever that costs no more bytes than the second
/// run's own address and data transfers; an equal cost merges too, since it saves transfers. The
/// runs are merged from left to right.
///
/// After a failed write the driver no longer knows what the panel holds, so ``lastFrame``
/// becomes `nil` and the next ``show(_:)`` sends the whole frame. It is used from one thread
/// (the display's).
public struct SSD1306<Bus: SMBusDevice> {
    /// The panel's size. The controller always holds 128 × 64 pixels; a 32-row panel shows pages
    /// 0–3.
    public enum Geometry: Hashable, Sendable {
        case w128h64, w128h32

        public var width: Int { 128 }
        public var height: Int {
            switch self {
            case .w128h64: 64
            case .w128h32: 32
            }
        }
        /// Pages of eight rows.
        public var pages: Int { height / 8 }
    }

    public let bus: Bus
    public let geometry: Geometry
    /// Whether the panel is mounted upside down: the controller then maps column 0 to SEG0 and
    /// scans from COM0 (A0h, C0h) instead of A1h, C8h, so the frame needs no redrawing.
    public let rotated180: Bool
    /// The contrast last written (81h), or to be written by ``start()``.
    public private(set) var contrast: UInt8
    /// Bytes put on the bus by transfers that succeeded, control bytes included.
    public private(set) var bytesSent: UInt64 = 0
    /// The frame the panel holds, as far as the driver knows; `nil` when it does not know, so
    /// the next ``show(_:)`` sends every column. Setting it to `nil` forces a full refresh.
    public var lastFrame: MonoBitmap?

    /// The most bytes an i2c-dev block write carries after its command (control) byte.
    static var blockLimit: Int { 32 }
    /// The bytes of a run's page and column address: the control byte and three commands.
    static var addressCost: Int { 4 }
    /// GDDRAM is 128 columns by 8 pages whatever the panel shows.
    static var ramPages: Int { 8 }

    /// - Parameters:
    ///   - bus: the controller's SMBus device (address 0x3C, or 0x3D with D/C# high).
    ///   - geometry: the panel's size.
    ///   - rotated180: whether the panel is mounted upside down.
    ///   - contrast: 81h's value; CFh is the application note's for the internal charge pump.
    public init(bus: Bus, geometry: Geometry, rotated180: Bool = false, contrast: UInt8 = 0xCF) {
        self.bus = bus
        self.geometry = geometry
        self.rotated180 = rotated180
        self.contrast = contrast
    }

    /// Initialises the controller, clears all of GDDRAM and turns the display on.
    /// - Throws: the failed transfer's ``HardwareError``; ``lastFrame`` is then `nil`.
    public mutating func start() throws(HardwareError) {
        typealias C = SSD1306Command
        lastFrame = nil
        let setup: [UInt8] = [
            C.displayOff,
            C.setClockDivide, C.clockDivideDefault,
            C.setMultiplex, UInt8(geometry.height - 1),
            C.setDisplayOffset, 0,
            C.startLine0,
            C.chargePump, C.chargePumpEnable,
            C.setAddressingMode, C.pageAddressing,
            rotated180 ? C.segmentRemapOff : C.segmentRemapOn,
            rotated180 ? C.comScanNormal : C.comScanRemapped,
            C.setComPins, geometry == .w128h64 ? C.comPinsAlternative : C.comPinsSequential,
            C.setContrast, contrast,
            C.setPrecharge, C.prechargeInternalPump,
            C.setVcomhDeselect, C.vcomhDefault,
            C.resumeFromRAM,
            C.normalDisplay,
            C.deactivateScroll
        ]
        _ = try write(C.commandStream, setup)
        let blank = [UInt8](repeating: 0, count: geometry.width)
        for page in 0..<Self.ramPages {
            _ = try writeRun(page: page, columns: 0..<geometry.width, of: blank)
        }
        _ = try write(C.commandStream, [C.displayOn])
        lastFrame = MonoBitmap(width: geometry.width, height: geometry.height)
    }

    /// Sends the columns of `frame` that differ from ``lastFrame`` (all of them when it is `nil`).
    /// - Returns: the bytes put on the bus for this refresh, control bytes included; 0 when
    ///   nothing changed.
    /// - Throws: ``HardwareError/Code/invalidRequest`` when the frame's size is not the panel's,
    ///   or the failed transfer's error, after which the next call sends the whole frame.
    @discardableResult
    public mutating func show(_ frame: MonoBitmap) throws(HardwareError) -> Int {
        guard frame.width == geometry.width && frame.height == geometry.height else {
            throw HardwareError(
                .invalidRequest, operation: "showing a frame on the SSD1306 at", subject: bus.subject,
                detail:
                    "the frame is \(frame.width)×\(frame.height) pixels but the panel is "
                    + "\(geometry.width)×\(geometry.height)",
                hint: "draw frames at the panel's size, or configure the panel's geometry")
        }
        let previous = lastFrame
        // Until every write has succeeded the panel's content is unknown.
        lastFrame = nil
        var sent = 0
        var bytes = [UInt8](repeating: 0, count: geometry.width)
        var changed: [Range<Int>] = []
        for page in 0..<geometry.pages {
            for column in 0..<geometry.width { bytes[column] = frame.pageByte(page: page, column: column) }
            changed.removeAll(keepingCapacity: true)
            if let previous {
                var column = 0
                while column < geometry.width {
                    guard previous.pageByte(page: page, column: column) != bytes[column] else {
                        column += 1
                        continue
                    }
                    let start = column
                    while column < geometry.width && previous.pageByte(page: page, column: column) != bytes[column] {
                        column += 1
                    }
                    changed.append(start..<column)
                }
            } else {
                changed.append(0..<geometry.width)
            }
            for run in Self.merged(changed) { sent += try writeRun(page: page, columns: run, of: bytes) }
        }
        lastFrame = frame
        return sent
    }

    /// Sets the contrast (81h).
    public mutating func setContrast(_ value: UInt8) throws(HardwareError) {
        _ = try write(SSD1306Command.commandStream, [SSD1306Command.setContrast, value])
        contrast = value
    }

    /// Turns the display on (AFh) or off into sleep (AEh); GDDRAM keeps its content.
    public mutating func setDisplayOn(_ on: Bool) throws(HardwareError) {
        _ = try write(SSD1306Command.commandStream, [on ? SSD1306Command.displayOn : SSD1306Command.displayOff])
    }

    // MARK: Runs and transfers

    /// The bytes on the wire for `n` data bytes: the data and one control byte per block.
    static func dataCost(_ count: Int) -> Int { count + (count + blockLimit - 1) / blockLimit }

    /// Joins neighbouring runs, left to right, while resending the gap costs no more bytes than
    /// the next run's own address and data transfers.
    static func merged(_ runs: [Range<Int>]) -> [Range<Int>] {
        guard var current = runs.first else { return [] }
        var result: [Range<Int>] = []
        for run in runs.dropFirst() {
            let joined = dataCost(run.upperBound - current.lowerBound)
            let apart = dataCost(current.count) + addressCost + dataCost(run.count)
            if joined <= apart {
                current = current.lowerBound..<run.upperBound
            } else {
                result.append(current)
                current = run
            }
        }
        result.append(current)
        return result
    }

    /// Addresses `columns` of `page` (page addressing mode) and sends their bytes in blocks.
    private mutating func writeRun(page: Int, columns: Range<Int>, of bytes: [UInt8]) throws(HardwareError) -> Int {
        typealias C = SSD1306Command
        let start = UInt8(columns.lowerBound)
        var sent = try write(
            C.commandStream, [C.pageStart0 | UInt8(page), C.columnLow | (start & 0x0F), C.columnHigh | (start >> 4)])
        var from = columns.lowerBound
        while from < columns.upperBound {
            let to = min(from + Self.blockLimit, columns.upperBound)
            sent += try write(C.dataStream, Array(bytes[from..<to]))
            from = to
        }
        return sent
    }

    /// One I2C block write; returns the bytes it put on the wire after the address.
    private mutating func write(_ control: UInt8, _ bytes: [UInt8]) throws(HardwareError) -> Int {
        do {
            try bus.writeBlock(register: control, bytes)
        } catch {
            lastFrame = nil
            throw error
        }
        bytesSent &+= UInt64(bytes.count + 1)
        return bytes.count + 1
    }
}
