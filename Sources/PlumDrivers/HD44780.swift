public import PlumHardware

/// A driver for an HD44780 character LCD (Hitachi HD44780U datasheet, ADE-207-272) behind a
/// PCF8574 I2C port expander, the common "backpack" (address 0x27 or 0x3F, or 0x20–0x27 and
/// 0x38–0x3F by its jumpers), generic over its bus and clock.
///
/// The backpack wires P0 to RS, P1 to R/W, P2 to E, P3 to the backlight transistor and P4–P7
/// to D4–D7, so the LCD runs in 4-bit mode. The PCF8574 has no registers: each byte written
/// sets its port. An SMBus I2C block write puts its command byte and then its data on the
/// wire, and the expander latches each byte in turn, so one transfer carries many E strobes:
/// each nibble is two port bytes, with E high and then low, the LCD latching on E's fall.
///
/// - **Start** (Figure 24, initialising by instruction in 4-bit mode): 50 ms for the supply,
///   nibble 3h three times with more than 4.1 ms and 100 µs between, 2h, then function set
///   (2 lines, 5 × 8), display off, clear, entry mode increment, display on with the cursor off.
///   The dance works whatever state the controller is in: after power-on (8-bit mode), or in
///   4-bit mode half-way through an instruction when a program stopped mid-transfer.
/// - **Refresh** (``show(_:)``): changed CGRAM glyphs first, then each run of changed cells,
///   with one set-DDRAM-address per run. Rows start at 00h, 40h, 00h + columns and 40h +
///   columns (14h and 54h on a 20 × 4, 10h and 50h on a 16 × 4). Two runs on a row are joined
///   when the gap is one cell: resending it costs the same four port bytes as a new address.
/// - **Timing**: the datasheet's execution times (Table 6: 37 µs, 1.52 ms for clear and return
///   home, at f_osc = 270 kHz) stretched to the slowest oscillator (190 kHz) are waited for on
///   the clock before the next transfer. Inside one transfer the bus itself spaces instructions:
///   the next instruction's first E fall comes two port bytes (18 SCL periods) after the last
///   one's, 45 µs even at 400 kHz.
///
/// After a failed write the driver no longer knows what the LCD holds: the next ``show(_:)``
/// writes every glyph and every cell. It is used from one thread (the display's).
public struct HD44780<Bus: SMBusDevice, Clock: MonotonicClock> {
    /// The sizes the driver knows the row addresses of (columns × rows).
    public static var supportedSizes: [(columns: Int, rows: Int)] {
        [(8, 2), (16, 2), (20, 2), (16, 4), (20, 4)]
    }

    public let bus: Bus
    public let clock: Clock
    public let columns: Int
    public let rows: Int
    /// Whether the backlight is on, as last written (or to be written by ``start()``).
    public private(set) var backlight: Bool
    /// Bytes put on the bus by transfers that succeeded: each transfer's command byte and data.
    public private(set) var bytesSent: UInt64 = 0

    /// The cells the LCD shows, as far as the driver knows.
    private var knownCells: [UInt8]?
    /// CGRAM's glyphs, as far as the driver knows; `nil` for unknown (CGRAM is random at power-on).
    private var knownGlyphs: [CharacterScreen.Glyph?] = Array(repeating: nil, count: 8)
    /// The instant the last instruction sent has finished executing.
    private var readyAt = MonotonicInstant(nanoseconds: 0)

    /// Execution times (Table 6 at 270 kHz, × 270/190 for the slowest oscillator).
    static var instructionNanoseconds: UInt64 { 53_000 }
    static var clearNanoseconds: UInt64 { 2_200_000 }
    /// Instructions per transfer: four port bytes each, 32 bytes on the wire.
    static var instructionsPerTransfer: Int { 8 }

    /// - Parameters:
    ///   - bus: the PCF8574's SMBus device.
    ///   - clock: the clock to wait on.
    ///   - columns, rows: the LCD's size, one of ``supportedSizes``; ``start()`` refuses others.
    ///   - backlight: whether the backlight is lit.
    public init(bus: Bus, clock: Clock, columns: Int, rows: Int, backlight: Bool = true) {
        self.bus = bus
        self.clock = clock
        self.columns = columns
        self.rows = rows
        self.backlight = backlight
    }

    /// The DDRAM address of a row's first cell.
    public func rowAddress(_ row: Int) -> UInt8 {
        UInt8((row % 2 == 1 ? 0x40 : 0x00) + (row >= 2 ? columns : 0))
    }

    /// Initialises the LCD by instruction (Figure 24) and leaves it blank with the display on.
    /// - Throws: ``HardwareError/Code/invalidRequest`` for a size not in ``supportedSizes``, or
    ///   the failed transfer's error.
    public mutating func start() throws(HardwareError) {
        guard Self.supportedSizes.contains(where: { $0 == (columns, rows) }) else {
            throw HardwareError(
                .invalidRequest, operation: "starting the HD44780 at", subject: bus.subject,
                detail: "a \(columns)×\(rows) LCD is not supported",
                hint: "the sizes with known row addresses are 8×2, 16×2, 20×2, 16×4 and 20×4")
        }
        forget()
        // More than 40 ms after VCC reaches 2.7 V; the driver cannot know when that was.
        readyAt = clock.now().advanced(byNanoseconds: 50_000_000)
        // Function set 8-bit, as nibbles: more than 4.1 ms, more than 100 µs, then 37 µs.
        for wait: UInt64 in [4_500_000, 150_000, Self.instructionNanoseconds] {
            try transfer(nibblePorts(0x3, data: false), lastExecutes: wait)
        }
        try transfer(nibblePorts(0x2, data: false), lastExecutes: Self.instructionNanoseconds)
        // Function set: 4-bit (DL 0), 2 lines (N 1), 5 × 8 dots (F 0); display off.
        try send([(0x28, false), (0x08, false)])
        // Clear display: spaces everywhere, AC 0.
        try transfer(bytePorts(0x01, data: false), lastExecutes: Self.clearNanoseconds)
        // Entry mode: increment, no shift; display on, cursor and blink off.
        try send([(0x06, false), (0x0C, false)])
        knownCells = Array(repeating: 0x20, count: columns * rows)
    }

    /// Writes the glyphs and cells of `screen` that differ from what the LCD shows.
    /// - Returns: the bytes put on the bus for this refresh; 0 when nothing changed.
    /// - Throws: ``HardwareError/Code/invalidRequest`` when the screen's size is not the LCD's,
    ///   or the failed transfer's error, after which the next call writes everything.
    @discardableResult
    public mutating func show(_ screen: CharacterScreen) throws(HardwareError) -> Int {
        guard screen.columns == columns && screen.rows == rows else {
            throw HardwareError(
                .invalidRequest, operation: "showing a screen on the HD44780 at", subject: bus.subject,
                detail:
                    "the screen is \(screen.columns)×\(screen.rows) characters but the LCD is \(columns)×\(rows)",
                hint: "lay screens out at the LCD's size, or configure its columns and rows")
        }
        let before = bytesSent
        var instructions: [(UInt8, Bool)] = []
        // CGRAM first: runs of changed glyphs, the address counter moving on from one to the next.
        var index = 0
        while index < 8 {
            guard knownGlyphs[index] != screen.glyphs[index] else {
                index += 1
                continue
            }
            instructions.append((0x40 | UInt8(index * 8), false))
            while index < 8 && knownGlyphs[index] != screen.glyphs[index] {
                for row in screen.glyphs[index].rows { instructions.append((row, true)) }
                index += 1
            }
        }
        let known = knownCells
        for row in 0..<rows {
            var column = 0
            var run: Range<Int>?
            func changed(_ column: Int) -> Bool {
                known.map { $0[row * columns + column] != screen[column, row] } ?? true
            }
            while column <= columns {
                if column < columns && changed(column) {
                    // A gap of one unchanged cell is joined: it costs what a new address costs.
                    if let open = run, column - open.upperBound <= 1 {
                        run = open.lowerBound..<(column + 1)
                    } else {
                        if let open = run { append(open, row: row, of: screen, to: &instructions) }
                        run = column..<(column + 1)
                    }
                } else if column == columns, let open = run {
                    append(open, row: row, of: screen, to: &instructions)
                }
                column += 1
            }
        }
        guard !instructions.isEmpty else { return 0 }
        // Until every write has succeeded the LCD's content is unknown.
        forget()
        try send(instructions)
        knownGlyphs = screen.glyphs.map { $0 }
        knownCells = (0..<rows).flatMap { row in (0..<columns).map { screen[$0, row] } }
        return Int(bytesSent - before)
    }

    /// Turns the backlight on or off with one port write that leaves E low.
    public mutating func setBacklight(_ on: Bool) throws(HardwareError) {
        backlight = on
        let port = on ? HD44780BackpackPins.backlight.rawValue : 0
        // An I2C block write carries at least one data byte: the port is set twice alike.
        try write([port, port])
    }

    // MARK: Port bytes

    private func append(
        _ run: Range<Int>, row: Int, of screen: CharacterScreen, to instructions: inout [(UInt8, Bool)]
    ) {
        instructions.append((0x80 | (rowAddress(row) + UInt8(run.lowerBound)), false))
        for column in run { instructions.append((screen[column, row], true)) }
    }

    private mutating func forget() {
        knownCells = nil
        knownGlyphs = Array(repeating: nil, count: 8)
    }

    /// One nibble on D4–D7 strobed: E high, then E low.
    private func nibblePorts(_ nibble: UInt8, data: Bool) -> [UInt8] {
        var port = nibble << 4
        if data { port |= HD44780BackpackPins.registerSelect.rawValue }
        if backlight { port |= HD44780BackpackPins.backlight.rawValue }
        return [port | HD44780BackpackPins.enable.rawValue, port]
    }

    /// A byte in 4-bit mode: high nibble, then low nibble.
    private func bytePorts(_ byte: UInt8, data: Bool) -> [UInt8] {
        nibblePorts(byte >> 4, data: data) + nibblePorts(byte & 0x0F, data: data)
    }

    /// Sends instructions (`false`) and data writes (`true`), eight to a transfer.
    private mutating func send(_ items: [(UInt8, Bool)]) throws(HardwareError) {
        var from = 0
        while from < items.count {
            let to = min(from + Self.instructionsPerTransfer, items.count)
            var ports: [UInt8] = []
            ports.reserveCapacity(4 * (to - from))
            for (byte, data) in items[from..<to] { ports += bytePorts(byte, data: data) }
            try transfer(ports, lastExecutes: Self.instructionNanoseconds)
            from = to
        }
    }

    /// Waits until the last instruction has executed, writes `ports`, and notes how long the
    /// last instruction in them takes.
    private mutating func transfer(_ ports: [UInt8], lastExecutes nanoseconds: UInt64) throws(HardwareError) {
        if clock.now() < readyAt { clock.sleep(until: readyAt) }
        try write(ports)
        readyAt = clock.now().advanced(byNanoseconds: nanoseconds)
    }

    /// One I2C block write: the first port byte as the command byte, the rest as data.
    private mutating func write(_ ports: [UInt8]) throws(HardwareError) {
        do {
            try bus.writeBlock(register: ports[0], Array(ports.dropFirst()))
        } catch {
            forget()
            throw error
        }
        bytesSent &+= UInt64(ports.count)
    }
}
