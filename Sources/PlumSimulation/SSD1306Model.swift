public import PlumDrivers
public import PlumHardware

/// A model of the Solomon Systech SSD1306 OLED controller on I2C, on a 128-column panel of 64
/// or 32 rows wired as the common modules are.
///
/// What it models, after the SSD1306 datasheet (rev 1.1):
/// - the I2C control byte (§8.1.5.2): Co = 0 makes the rest of the transfer one stream of
///   commands (D/C# = 0) or GDDRAM data (D/C# = 1); Co = 1 makes only the next byte so, after
///   which another control byte follows. A command's parameters may arrive in later transfers;
/// - GDDRAM (§8.7): 128 segments by 8 pages of 8 rows, random at power-on (from a seed);
///   the segment remap (A0h/A1h) acts when data is written, as §10.1.8 says, so ``gddram`` is
///   indexed by segment;
/// - the addressing modes (§10.1.3): page (the column wraps to 0 within the page), horizontal
///   and vertical, with the 21h/22h column and page windows and their wrap rules; B0h–B7h and
///   00h–1Fh act in page mode only;
/// - the hardware configuration: COM scan direction (C0h/C8h, at once), multiplex (A8h), display
///   offset (D3h), start line (40h–7Fh), COM pins (DAh, sequential or alternative, left/right
///   remap), as the viewer of the module sees them (``frame``);
/// - the fundamental commands: contrast (81h), entire display on (A4h/A5h), inverse (A6h/A7h),
///   display on/off (AEh/AFh), and the charge pump (8Dh), without which the panel stays dark;
/// - timing and scroll setup commands are accepted and their parameters skipped; scrolling is
///   not animated. Anything else is kept in ``unknownCommands``;
/// - reads return the status byte: D6 set while the display is off;
/// - faults: ``I2CFault`` on the bus.
///
/// The panel is wired as on the 0.96-inch (128 × 64, alternative COM pins) and 0.91-inch
/// (128 × 32, sequential COM pins) modules, where A1h and C8h show column 0 at the left and
/// row 0 at the top. The offset (D3h) is modelled as moving the picture up like the start line,
/// which is what it does with a full multiplex; with a reduced multiplex the real chip also
/// changes which COM lines are driven.
///
/// It is used from one thread, like the driver it serves.
public final class SSD1306Model: SMBusDevice {
    public enum AddressingMode: UInt8, Hashable, Sendable {
        case horizontal = 0
        case vertical = 1
        case page = 2
    }

    /// The panel's rows: 64 or 32.
    public let height: Int
    /// The controller's memory: 128 segments × 64 rows, page bytes as §8.7 lays them out.
    public private(set) var gddram: MonoBitmap
    public private(set) var contrast: UInt8 = 0x7F
    public private(set) var displayOn = false
    public private(set) var chargePumpOn = false
    public private(set) var entireDisplayOn = false
    public private(set) var inverse = false
    public private(set) var addressingMode = AddressingMode.page
    public private(set) var segmentRemap = false
    public private(set) var comScanRemapped = false
    public private(set) var multiplex = 64
    public private(set) var displayOffset = 0
    public private(set) var startLine = 0
    /// DAh's A[4]: alternative COM pin configuration.
    public private(set) var comPinsAlternative = true
    /// DAh's A[5]: COM left/right remap.
    public private(set) var comLeftRightRemap = false
    /// The GDDRAM pointer.
    public private(set) var column = 0
    public private(set) var page = 0
    /// The 21h and 22h windows.
    public private(set) var columnRange = 0...127
    public private(set) var pageRange = 0...7
    /// Commands the model does not know, in the order received.
    public private(set) var unknownCommands: [UInt8] = []
    /// Write transfers that reached the chip, and their bytes after the address (control
    /// bytes included).
    public private(set) var writes: UInt64 = 0
    public private(set) var bytesWritten: UInt64 = 0
    /// The bus faults in force.
    public private(set) var faults: I2CFault.Injector

    /// A command waiting for its parameters.
    private var pending: [UInt8] = []

    /// - Parameters:
    ///   - height: the panel's rows, 64 or 32.
    ///   - busNumber: the N of /dev/i2c-N, for messages.
    ///   - address: 0x3C or 0x3D.
    ///   - powerOnSeed: the seed of GDDRAM's random power-on content; `nil` starts it dark.
    public init(height: Int = 64, busNumber: Int = 1, address: UInt8 = 0x3C, powerOnSeed: UInt64? = 0x5D13_06) {
        precondition(height == 64 || height == 32, "SSD1306 modules have 64 or 32 rows")
        self.height = height
        faults = I2CFault.Injector(busNumber: busNumber, address: address)
        gddram = MonoBitmap(width: 128, height: 64)
        if let seed = powerOnSeed {
            var random = SeededRandom(seed: seed)
            for page in 0..<8 {
                for column in 0..<128 {
                    gddram.setPageByte(UInt8(truncatingIfNeeded: random.next()), page: page, column: column)
                }
            }
        }
    }

    /// "i2c-1 address 0x3c".
    public var subject: String { faults.subject }

    public func inject(_ fault: I2CFault) { faults.inject(fault) }
    public func clearFaults() { faults.clear() }

    /// The status byte (§8.1.5.2, read): D6 is 1 while the display is off.
    public var status: UInt8 { displayOn ? 0x00 : 0x40 }

    // MARK: What the viewer sees

    /// The panel as its viewer sees it: 128 × ``height``, lit pixels `true`.
    public var frame: MonoBitmap {
        var image = MonoBitmap(width: 128, height: height)
        guard displayOn && chargePumpOn else { return image }
        // The COM pin that drives each of the multiplexed rows, in scan order.
        var rowOnPin = [Int?](repeating: nil, count: 64)
        for row in 0..<multiplex {
            let scanIndex = comScanRemapped ? multiplex - 1 - row : row
            rowOnPin[pin(scanIndex: scanIndex, alternative: comPinsAlternative, leftRightRemap: comLeftRightRemap)] =
                row
        }
        for y in 0..<height {
            // The module wires its line y to the pin its own settings drive row y from.
            let wired = pin(scanIndex: height - 1 - y, alternative: height == 64, leftRightRemap: false)
            guard let row = rowOnPin[wired] else { continue }
            let ramRow = (row + startLine + displayOffset) % 64
            for x in 0..<128 {
                let stored = gddram[segment(forViewerColumn: x), ramRow]
                image[x, y] = entireDisplayOn || stored != inverse
            }
        }
        return image
    }

    /// The module wires SEG127 to the viewer's left, so that A1h puts column 0 there.
    private func segment(forViewerColumn x: Int) -> Int { 127 - x }

    /// The COM pin a scan index drives (§10.1.18, Table 10-3).
    private func pin(scanIndex: Int, alternative: Bool, leftRightRemap: Bool) -> Int {
        let pin = alternative ? (scanIndex % 2 == 0 ? scanIndex / 2 : 32 + scanIndex / 2) : scanIndex
        return leftRightRemap ? (pin + 32) % 64 : pin
    }

    // MARK: SMBus

    /// SMBus read byte: the command byte is written (a control byte), then the status is read.
    public func readByte(register: UInt8) throws(HardwareError) -> UInt8 {
        try faults.check(operation: "reading byte \(Self.hex(register)) at")
        return status
    }

    public func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
        try faults.check(operation: "reading word \(Self.hex(register)) at")
        return UInt16(status) | UInt16(status) << 8
    }

    public func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        guard (1...32).contains(count) else {
            throw HardwareError(
                .invalidRequest, operation: "reading block \(Self.hex(register)) of", subject: subject,
                detail: "\(count) bytes", hint: "an SMBus block is 1 to 32 bytes; split longer transfers")
        }
        try faults.check(operation: "reading block \(Self.hex(register)) at")
        return Array(repeating: status, count: count)
    }

    public func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) {
        try faults.check(operation: "writing byte \(Self.hex(register)) at")
        receive([register, value])
    }

    public func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        try faults.check(operation: "writing word \(Self.hex(register)) at")
        receive([register, UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)])
    }

    /// I2C block write: the command byte is the first control byte; 1 to 32 bytes follow, as
    /// i2c-dev allows.
    public func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        guard (1...32).contains(bytes.count) else {
            throw HardwareError(
                .invalidRequest, operation: "writing block \(Self.hex(register)) of", subject: subject,
                detail: "\(bytes.count) bytes", hint: "an SMBus block is 1 to 32 bytes; split longer transfers")
        }
        try faults.check(operation: "writing block \(Self.hex(register)) at")
        receive([register] + bytes)
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = String(value, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    // MARK: The wire

    /// The bytes after the address of one write transfer.
    private func receive(_ wire: [UInt8]) {
        writes &+= 1
        bytesWritten &+= UInt64(wire.count)
        var index = 0
        while index < wire.count {
            let control = wire[index]
            index += 1
            let continuation = control & 0x80 != 0
            let data = control & 0x40 != 0
            let end = continuation ? min(index + 1, wire.count) : wire.count
            for byte in wire[index..<end] {
                if data { writeData(byte) } else { command(byte) }
            }
            index = end
        }
    }

    // MARK: GDDRAM

    private func writeData(_ byte: UInt8) {
        gddram.setPageByte(byte, page: page, column: segmentRemap ? 127 - column : column)
        switch addressingMode {
        case .page:
            column = column == 127 ? 0 : column + 1
        case .horizontal:
            if column >= columnRange.upperBound {
                column = columnRange.lowerBound
                page = page >= pageRange.upperBound ? pageRange.lowerBound : page + 1
            } else {
                column += 1
            }
        case .vertical:
            if page >= pageRange.upperBound {
                page = pageRange.lowerBound
                column = column >= columnRange.upperBound ? columnRange.lowerBound : column + 1
            } else {
                page += 1
            }
        }
    }

    // MARK: Commands

    /// How many parameter bytes follow a command (§9).
    private static func parameterCount(_ opcode: UInt8) -> Int {
        switch opcode {
        case 0x20, 0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2
        case 0x29, 0x2A: 5
        case 0x26, 0x27: 6
        default: 0
        }
    }

    private func command(_ byte: UInt8) {
        pending.append(byte)
        guard pending.count > Self.parameterCount(pending[0]) else { return }
        let parameters = Array(pending.dropFirst())
        let opcode = pending[0]
        pending.removeAll(keepingCapacity: true)
        execute(opcode, parameters)
    }

    private func execute(_ opcode: UInt8, _ p: [UInt8]) {
        switch opcode {
        case 0x00...0x0F:
            if addressingMode == .page { column = column & 0xF0 | Int(opcode & 0x0F) }
        case 0x10...0x1F:
            if addressingMode == .page { column = Int(opcode & 0x07) << 4 | column & 0x0F }
        case 0x20:
            if let mode = AddressingMode(rawValue: p[0] & 0x03) {
                addressingMode = mode
            } else {
                unknownCommands += [opcode, p[0]]
            }
        case 0x21:
            let start = Int(p[0] & 0x7F)
            columnRange = start...max(start, Int(p[1] & 0x7F))
            column = start
        case 0x22:
            let start = Int(p[0] & 0x07)
            pageRange = start...max(start, Int(p[1] & 0x07))
            page = start
        case 0x26, 0x27, 0x29, 0x2A, 0x2E, 0x2F, 0xA3, 0xD5, 0xD9, 0xDB, 0xE3:
            return  // Scrolling, timing and NOP: accepted, not animated.
        case 0x40...0x7F:
            startLine = Int(opcode & 0x3F)
        case 0x81:
            contrast = p[0]
        case 0x8D:
            chargePumpOn = p[0] & 0x04 != 0
        case 0xA0, 0xA1:
            segmentRemap = opcode == 0xA1
        case 0xA4, 0xA5:
            entireDisplayOn = opcode == 0xA5
        case 0xA6, 0xA7:
            inverse = opcode == 0xA7
        case 0xA8:
            // Values below 15 are invalid (§10.1.11) and leave the ratio as it was.
            let value = Int(p[0] & 0x3F)
            if value >= 15 { multiplex = value + 1 } else { unknownCommands += [opcode, p[0]] }
        case 0xAE, 0xAF:
            displayOn = opcode == 0xAF
        case 0xB0...0xB7:
            if addressingMode == .page { page = Int(opcode & 0x07) }
        case 0xC0, 0xC8:
            comScanRemapped = opcode == 0xC8
        case 0xD3:
            displayOffset = Int(p[0] & 0x3F)
        case 0xDA:
            comPinsAlternative = p[0] & 0x10 != 0
            comLeftRightRemap = p[0] & 0x20 != 0
        default:
            unknownCommands.append(opcode)
        }
    }
}
