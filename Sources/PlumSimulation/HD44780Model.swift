public import PlumDrivers
public import PlumHardware

/// A model of an HD44780 character LCD behind a PCF8574 I2C backpack (P0 RS, P1 R/W, P2 E,
/// P3 backlight, P4–P7 D4–D7), on the shared clock.
///
/// What it models:
/// - the PCF8574 (NXP datasheet): no registers; every byte written after the address sets the
///   port, latched at the byte's acknowledge, and a read returns the port. It powers up with
///   every pin high. An SMBus transfer's command byte is the first byte written, so even a
///   read byte sets the port first;
/// - the HD44780's bus interface (HD44780U datasheet, Figure 25 and Table 6): it latches
///   RS, R/W and D4–D7 on each falling edge of E, with the values the port held while E was
///   high. D0–D3 are not wired and read high (the pins' pull-ups);
/// - the interface width: after power-on the internal reset leaves it in 8-bit mode, 1 line,
///   display off, so each E fall is a whole instruction with D0–D3 high. Function set with DL = 0
///   switches to 4-bit mode, in which two nibbles, high then low, make one byte (RS as it is at
///   the second). A driver that skips Figure 24's 3h, 3h, 3h, 2h gets its nibbles paired
///   wrongly, as the real chip does. Reads (R/W = 1) in 4-bit mode use up a nibble too;
/// - the instructions of Table 6: clear, return home, entry mode (increment or decrement,
///   display shift), display on/off, cursor or display shift, function set, set CGRAM and
///   DDRAM address; data writes to DDRAM (80 bytes: 00h–27h and 40h–67h in 2-line mode, 00h–4Fh
///   in 1-line mode) or CGRAM (64 bytes), the address counter wrapping as the chip's does;
/// - timing: with execution times of 37 µs, 1.52 ms for clear and return home, 40 ms after
///   power-on, and Figure 24's waits as the times of the first two instructions after power-on
///   (4.1 ms and 100 µs), every E fall that comes before the last instruction has finished is
///   counted in ``tooEarly`` (and still obeyed). Each port byte is latched at its own instant of
///   the transfer at ``busClockHertz``;
/// - faults: ``I2CFault`` on the bus.
///
/// It is used from one thread, like the driver it serves.
public final class HD44780Model<Clock: MonotonicClock>: SMBusDevice {
    public let clock: Clock
    public let columns: Int
    public let rows: Int
    /// The SCL frequency transfers are timed at; `nil` makes transfers take no time.
    public var busClockHertz: Double?

    /// The PCF8574's port.
    public private(set) var port: UInt8 = 0xFF
    /// DDRAM: line 1 (addresses 00h–27h) in bytes 0–39, line 2 (40h–67h) in 40–79; in 1-line
    /// mode addresses 00h–4Fh in order.
    public private(set) var ddram = [UInt8](repeating: 0x20, count: 80)
    /// CGRAM: eight glyphs of eight rows.
    public private(set) var cgram: [UInt8]
    public private(set) var addressCounter = 0
    /// Whether the address counter points into CGRAM.
    public private(set) var addressesCGRAM = false
    public private(set) var eightBitMode = true
    public private(set) var twoLineMode = false
    public private(set) var displayOn = false
    public private(set) var cursorOn = false
    public private(set) var blinkOn = false
    public private(set) var increment = true
    public private(set) var shiftsDisplay = false
    /// Characters the display has been shifted left by.
    public private(set) var displayShift = 0
    /// E falls that came while the controller was still busy.
    public private(set) var tooEarly = 0
    /// Instructions and data writes executed.
    public private(set) var executed: UInt64 = 0
    /// Write transfers that reached the chip, and their bytes after the address (the command
    /// byte included).
    public private(set) var writes: UInt64 = 0
    public private(set) var bytesWritten: UInt64 = 0
    /// The bus faults in force.
    public private(set) var faults: I2CFault.Injector

    /// The high nibble of a 4-bit byte, waiting for its low nibble.
    private var highNibble: UInt8?
    private var busyUntil: MonotonicInstant
    private var sincePowerOn = 0

    /// - Parameters:
    ///   - columns, rows: the LCD's size.
    ///   - clock: the clock shared with the driver; power-on is its `now()`.
    ///   - busClockHertz: the SCL frequency; the PCF8574 is specified to 100 kHz.
    ///   - busNumber: the N of /dev/i2c-N, for messages.
    ///   - address: the PCF8574's address (0x27, 0x3F, …).
    ///   - powerOnSeed: the seed of CGRAM's random power-on content; `nil` starts it blank.
    public init(
        columns: Int = 16, rows: Int = 2, clock: Clock, busClockHertz: Double? = 100_000, busNumber: Int = 1,
        address: UInt8 = 0x27, powerOnSeed: UInt64? = 0x4478_0
    ) {
        precondition(columns > 0 && rows > 0 && columns * rows <= 80, "an HD44780 shows at most 80 characters")
        self.columns = columns
        self.rows = rows
        self.clock = clock
        self.busClockHertz = busClockHertz
        faults = I2CFault.Injector(busNumber: busNumber, address: address)
        busyUntil = clock.now().advanced(byNanoseconds: 40_000_000)
        if let seed = powerOnSeed {
            var random = SeededRandom(seed: seed)
            cgram = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        } else {
            cgram = Array(repeating: 0, count: 64)
        }
    }

    /// "i2c-1 address 0x27".
    public var subject: String { faults.subject }

    public func inject(_ fault: I2CFault) { faults.inject(fault) }
    public func clearFaults() { faults.clear() }

    /// P3: the backlight transistor.
    public var backlight: Bool { port & 0x08 != 0 }

    // MARK: What the viewer sees

    /// The LCD as its viewer sees it: blank while the display is off; codes 08h–0Fh show as
    /// 00h–07h, the same CGRAM glyphs.
    public var screen: CharacterScreen {
        var screen = CharacterScreen(columns: columns, rows: rows)
        screen.glyphs = (0..<8).map { CharacterScreen.Glyph(rows: Array(cgram[$0 * 8..<$0 * 8 + 8])) }
        guard displayOn else { return screen }
        for row in 0..<rows {
            let line = row % 2
            let first = row >= 2 ? columns : 0
            for column in 0..<columns {
                let code: UInt8
                if twoLineMode {
                    code = ddram[line * 40 + (first + column + displayShift) % 40]
                } else {
                    // One line: the second line's common drivers are idle.
                    guard line == 0 else { continue }
                    code = ddram[(first + column + displayShift) % 80]
                }
                screen[column, row] = code < 0x10 ? code & 0x07 : code
            }
        }
        return screen
    }

    // MARK: SMBus

    public func readByte(register: UInt8) throws(HardwareError) -> UInt8 {
        try transfer([register], reading: 1, operation: "reading byte")[0]
    }

    public func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
        let bytes = try transfer([register], reading: 2, operation: "reading word")
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }

    public func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        try checkLength(count, "reading block", register)
        return try transfer([register], reading: count, operation: "reading block")
    }

    public func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) {
        _ = try transfer([register, value], reading: 0, operation: "writing byte")
    }

    public func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        let wire = [register, UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        _ = try transfer(wire, reading: 0, operation: "writing word")
    }

    /// I2C block write: the command byte and 1 to 32 bytes, each latched on the port in turn.
    public func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        try checkLength(bytes.count, "writing block", register)
        _ = try transfer([register] + bytes, reading: 0, operation: "writing block")
    }

    private func checkLength(_ count: Int, _ operation: String, _ register: UInt8) throws(HardwareError) {
        guard (1...32).contains(count) else {
            throw HardwareError(
                .invalidRequest, operation: "\(operation) \(Self.hex(register)) of", subject: subject,
                detail: "\(count) bytes", hint: "an SMBus block is 1 to 32 bytes; split longer transfers")
        }
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = String(value, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    /// Writes `wire` to the port byte by byte, then reads `reading` bytes of the port.
    private func transfer(_ wire: [UInt8], reading: Int, operation: String) throws(HardwareError) -> [UInt8] {
        let start = clock.now()
        do {
            try faults.check(operation: "\(operation) \(Self.hex(wire[0])) at")
        } catch {
            spendBusTime(bits: 1 + 9 + 1, from: start)
            throw error
        }
        // START, address + W, then each byte; the port changes at each byte's acknowledge.
        for (index, byte) in wire.enumerated() {
            latch(byte, at: instant(start, bits: 1 + 9 + 9 * (index + 1)))
        }
        var bits = 1 + 9 + 9 * wire.count
        if reading > 0 { bits += 1 + 9 + 9 * reading }
        spendBusTime(bits: bits + 1, from: start)
        if reading == 0 {
            writes &+= 1
            bytesWritten &+= UInt64(wire.count)
        }
        return Array(repeating: port, count: reading)
    }

    private func instant(_ start: MonotonicInstant, bits: Int) -> MonotonicInstant {
        guard let hertz = busClockHertz, hertz > 0 else { return start }
        return start.advanced(byNanoseconds: UInt64((Double(bits) / hertz * 1e9).rounded(.up)))
    }

    private func spendBusTime(bits: Int, from start: MonotonicInstant) {
        clock.sleep(until: instant(start, bits: bits))
    }

    // MARK: The HD44780's bus interface

    private func latch(_ byte: UInt8, at time: MonotonicInstant) {
        let held = port
        port = byte
        guard held & 0x04 != 0 && byte & 0x04 == 0 else { return }
        let registerSelect = held & 0x01 != 0
        let nibble = held >> 4
        if held & 0x02 != 0 {
            // A read: in 4-bit mode it takes a nibble's turn.
            if !eightBitMode { highNibble = highNibble == nil ? nibble : nil }
            return
        }
        if time < busyUntil { tooEarly += 1 }
        if eightBitMode {
            execute(nibble << 4 | 0x0F, data: registerSelect, at: time)
        } else if let high = highNibble {
            highNibble = nil
            execute(high << 4 | nibble, data: registerSelect, at: time)
        } else {
            highNibble = nibble
        }
    }

    private func execute(_ byte: UInt8, data: Bool, at time: MonotonicInstant) {
        executed &+= 1
        sincePowerOn += 1
        var nanoseconds: UInt64 = 37_000
        if data {
            writeData(byte)
        } else if byte & 0x80 != 0 {
            addressCounter = Int(byte & 0x7F)
            addressesCGRAM = false
        } else if byte & 0x40 != 0 {
            addressCounter = Int(byte & 0x3F)
            addressesCGRAM = true
        } else if byte & 0x20 != 0 {
            eightBitMode = byte & 0x10 != 0
            twoLineMode = byte & 0x08 != 0
            if eightBitMode { highNibble = nil }
        } else if byte & 0x10 != 0 {
            let right = byte & 0x04 != 0
            if byte & 0x08 != 0 {
                shiftDisplay(left: !right)
            } else {
                moveAddressCounter(up: right)
            }
        } else if byte & 0x08 != 0 {
            displayOn = byte & 0x04 != 0
            cursorOn = byte & 0x02 != 0
            blinkOn = byte & 0x01 != 0
        } else if byte & 0x04 != 0 {
            increment = byte & 0x02 != 0
            shiftsDisplay = byte & 0x01 != 0
        } else if byte & 0x02 != 0 {
            addressCounter = 0
            addressesCGRAM = false
            displayShift = 0
            nanoseconds = 1_520_000
        } else if byte & 0x01 != 0 {
            ddram = Array(repeating: 0x20, count: 80)
            addressCounter = 0
            addressesCGRAM = false
            displayShift = 0
            increment = true
            nanoseconds = 1_520_000
        }
        // Figure 24's waits after the first and second function set following power-on.
        if sincePowerOn == 1 { nanoseconds = max(nanoseconds, 4_100_000) }
        if sincePowerOn == 2 { nanoseconds = max(nanoseconds, 100_000) }
        busyUntil = time.advanced(byNanoseconds: nanoseconds)
    }

    private func writeData(_ byte: UInt8) {
        if addressesCGRAM {
            cgram[addressCounter & 0x3F] = byte
            addressCounter = (addressCounter + (increment ? 1 : 63)) % 64
            return
        }
        ddram[ddramIndex(addressCounter)] = byte
        moveAddressCounter(up: increment)
        if shiftsDisplay { shiftDisplay(left: increment) }
    }

    /// The DDRAM byte an address selects; addresses past a line's end fold back into it.
    private func ddramIndex(_ address: Int) -> Int {
        guard twoLineMode else { return address % 80 }
        return (address & 0x40 != 0 ? 40 : 0) + (address & 0x3F) % 40
    }

    private func moveAddressCounter(up: Bool) {
        if addressesCGRAM {
            addressCounter = (addressCounter + (up ? 1 : 63)) % 64
        } else if !twoLineMode {
            addressCounter = (addressCounter + (up ? 1 : 79)) % 80
        } else if up {
            addressCounter = addressCounter == 0x27 ? 0x40 : addressCounter == 0x67 ? 0x00 : addressCounter + 1
        } else {
            addressCounter = addressCounter == 0x40 ? 0x27 : addressCounter == 0x00 ? 0x67 : addressCounter - 1
        }
    }

    private func shiftDisplay(left: Bool) {
        let length = twoLineMode ? 40 : 80
        displayShift = (displayShift + (left ? 1 : length - 1)) % length
    }
}
