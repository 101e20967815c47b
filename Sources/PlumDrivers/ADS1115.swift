public import PlumHardware

/// A register-level driver for the TI ADS1115 16-bit I2C ADC (SBAS444), generic over its bus,
/// its clock and an optional ALERT/RDY line.
///
/// It never trusts a result it cannot prove fresh:
/// - **Single-shot** (SBAS444 §9.4.2.1): it writes the Config register with OS = 1, sleeps the
///   nominal conversion time, then polls OS until it reads 1 (or waits for the ALERT/RDY edge),
///   with a timeout that allows for the oscillator's ±10 %. A conversion that never finishes is
///   ``ADS1115Error/notReady(subject:waited:detail:hint:)``, never a stale code.
/// - **Continuous** (SBAS444 §9.4.2.2): after any change of settings the conversion in flight
///   still finishes with the old input, so the first result after the change is discarded and
///   counted. Without a ready line the driver waits the old plus the new conversion time plus
///   10 %, as the kernel's ti-ads1015 driver does in `ads1015_get_adc_result`, and paces reads
///   at 1.1 conversion times so it never reads the same conversion twice.
/// - **Conversion-ready pin** (SBAS444 §9.3.8): with a ready line it sets Hi_thresh MSB = 1,
///   Lo_thresh MSB = 0 and COMP_QUE ≠ 11b, then waits on the asserting edge in the kernel.
///
/// Registers travel MSB first; the only byte swap is in ``SMBusDevice/readBigEndianWord(register:)``.
/// The driver is used from one thread (the sensor's sampler).
public struct ADS1115<Bus: SMBusDevice, Time: MonotonicClock, Ready: GPIOEdgeLine> {
    public let bus: Bus
    public let clock: Time
    /// The GPIO input wired to ALERT/RDY (with a pull-up), requested with edge detection for
    /// the asserting edge (falling for the default active-low polarity) or both edges.
    public let readyLine: Ready?

    /// SMBus transfers and GPIO operations performed, including failed ones.
    public private(set) var operations: UInt64 = 0

    /// The settings last written, when the driver knows them.
    private var written: ADS1115Config?
    /// Whether the chip may be converting continuously (unknown counts as possibly).
    private var mayBeContinuous = true
    /// Whether the threshold registers hold the conversion-ready pattern.
    private var readyPatternWritten = false
    /// Continuous mode: the earliest instant a read returns a conversion not yet returned.
    private var nextFreshResult: MonotonicInstant?
    /// Continuous mode with a ready line: edges at or before this instant are stale, and
    /// `staleEdgesToSkip` more after it are the conversion that was in flight at the change.
    private var staleBefore = MonotonicInstant(nanoseconds: 0)
    private var staleEdgesToSkip: UInt32 = 0
    /// Continuous mode without a ready line: a stale conversion was skipped by waiting.
    private var staleSkippedByWaiting: UInt32 = 0
    private var events: [EdgeEvent] = []

    /// - Parameters:
    ///   - bus: the chip's SMBus device (address 0x48–0x4B).
    ///   - clock: the monotonic clock to time conversions with.
    ///   - readyLine: the ALERT/RDY input, or `nil` to poll the OS bit.
    public init(bus: Bus, clock: Time, readyLine: Ready?) {
        self.bus = bus
        self.clock = clock
        self.readyLine = readyLine
        events.reserveCapacity(16)
    }

    // MARK: Registers

    /// Reads a register (SMBus read word, then the MSB-first swap).
    public mutating func read(_ register: ADS1115Register) throws(ADS1115Error) -> UInt16 {
        operations &+= 1
        do { return try bus.readBigEndianWord(register: register.rawValue) } catch { throw .hardware(error) }
    }

    /// Writes a register (the MSB-first swap, then SMBus write word).
    public mutating func write(_ register: ADS1115Register, _ value: UInt16) throws(ADS1115Error) {
        operations &+= 1
        do { try bus.writeBigEndianWord(register: register.rawValue, value) } catch { throw .hardware(error) }
    }

    /// Reads the Config register.
    /// - Returns: the settings, and OS[15]: `true` when no conversion is in progress.
    public mutating func readConfiguration() throws(ADS1115Error) -> (config: ADS1115Config, idle: Bool) {
        let value = try read(.config)
        return (ADS1115Config(registerValue: value), value & ADS1115Config.operationalStatusBit != 0)
    }

    /// Writes Lo_thresh = 0000h and Hi_thresh = 8000h: the conversion-ready pattern
    /// (SBAS444 §9.6.4: Hi_thresh MSB 1, Lo_thresh MSB 0).
    public mutating func enableConversionReadyPin() throws(ADS1115Error) {
        try write(.loThresh, 0x0000)
        try write(.hiThresh, 0x8000)
        readyPatternWritten = true
    }

    // MARK: Conversions

    /// Takes one trusted conversion with `config`, in the config's mode.
    ///
    /// With a ready line, COMP_QUE 11b (disabled) is replaced by 00b, since the pin is
    /// high-impedance while the comparator is disabled.
    public mutating func read(_ config: ADS1115Config) throws(ADS1115Error) -> ADS1115Conversion {
        var config = config
        if readyLine != nil, config.comparatorQueue == .disabled { config.comparatorQueue = .assertAfterOne }
        do {
            switch config.mode {
            case .singleShot: return try readSingleShot(config)
            case .continuous: return try readContinuous(config)
            }
        } catch {
            // After a failure the chip may have reset or missed a write: ask it again next time.
            forgetChipState()
            throw error
        }
    }

    private mutating func forgetChipState() {
        written = nil
        mayBeContinuous = true
        readyPatternWritten = false
        nextFreshResult = nil
        staleEdgesToSkip = 0
        staleSkippedByWaiting = 0
    }

    /// Fails when the chip no longer holds the settings the driver wrote: a supply dip resets
    /// it to 8583h (single-shot, AIN0−AIN1), and its Conversion register to 0000h.
    private func verify(_ found: ADS1115Config, expected: ADS1115Config) throws(ADS1115Error) {
        guard found != expected else { return }
        throw .hardware(
            HardwareError(
                .malformed, operation: "checking Config of", subject: bus.subject,
                detail:
                    "it reads \(Self.hex(found.registerValue)) instead of the \(Self.hex(expected.registerValue)) "
                    + "written, so the chip has reset",
                hint:
                    "check the ADS1115's supply, ground and decoupling; the driver configures it again on the next read"
            ))
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits + "h"
    }

    /// Reads each setting in turn, so every result belongs to its own input.
    public mutating func scan(_ configs: [ADS1115Config]) throws(ADS1115Error) -> [ADS1115Conversion] {
        var results: [ADS1115Conversion] = []
        results.reserveCapacity(configs.count)
        for config in configs { results.append(try read(config)) }
        return results
    }

    /// How long to wait for one conversion before calling the chip not ready: twice the
    /// slowest conversion (oscillator 10 % slow) plus 2 ms for bus latency and scheduling.
    public static func readyTimeout(for rate: ADS1115Config.DataRate) -> Duration {
        .nanoseconds(Int64(2 * rate.slowestConversionNanoseconds + 2_000_000))
    }

    private mutating func readSingleShot(_ config: ADS1115Config) throws(ADS1115Error) -> ADS1115Conversion {
        if mayBeContinuous && written == nil {
            // Unknown state (first use): a chip already idle in single-shot mode, as at power-on,
            // needs no power-down; only one that is converting does.
            let (current, idle) = try readConfiguration()
            if current.mode == .singleShot && idle { mayBeContinuous = false }
        }
        if mayBeContinuous { try powerDown() }
        if readyLine != nil && !readyPatternWritten { try enableConversionReadyPin() }
        try drainEdges()
        let start = clock.now()
        try write(.config, config.registerValue | ADS1115Config.operationalStatusBit)
        written = config
        let timeout = Self.readyTimeout(for: config.dataRate)
        let deadline = start.advanced(byNanoseconds: timeout.ads1115Nanoseconds)
        var edgeTime: MonotonicInstant?
        if readyLine != nil {
            var skip: UInt32 = 0
            var stale: UInt32 = 0
            edgeTime = try waitForAssertingEdge(
                after: start, polarity: config.comparatorPolarity, timeout: timeout, skip: &skip, stale: &stale)
        } else {
            clock.sleep(until: start.advanced(byNanoseconds: config.dataRate.nominalConversionNanoseconds))
            try pollUntilIdle(
                rate: config.dataRate, deadline: deadline, timeout: timeout, what: "single-shot conversion",
                expected: config)
        }
        let code = Int16(bitPattern: try read(.conversion))
        return ADS1115Conversion(code: code, config: config, time: clock.now(), edgeTime: edgeTime)
    }

    private mutating func readContinuous(_ config: ADS1115Config) throws(ADS1115Error) -> ADS1115Conversion {
        if written != config || !mayBeContinuous || nextFreshResult == nil {
            try startContinuous(config)
        }
        let rate = config.dataRate
        var edgeTime: MonotonicInstant?
        var stale: UInt32 = staleSkippedByWaiting
        staleSkippedByWaiting = 0
        if readyLine != nil {
            let timeout = Self.readyTimeout(for: rate) + .nanoseconds(Int64(rate.slowestConversionNanoseconds))
            var skip = staleEdgesToSkip
            defer { staleEdgesToSkip = skip }
            edgeTime = try waitForAssertingEdge(
                after: staleBefore, polarity: config.comparatorPolarity, timeout: timeout,
                skip: &skip, stale: &stale)
        } else if let fresh = nextFreshResult {
            clock.sleep(until: fresh)
        }
        let code = Int16(bitPattern: try read(.conversion))
        if readyLine == nil {
            // Without edges a reset chip would go on returning its last (or a zero) code: the
            // settings still in place after the read prove the code came from them.
            try verify(try readConfiguration().config, expected: config)
        }
        let now = clock.now()
        nextFreshResult = now.advanced(byNanoseconds: rate.slowestConversionNanoseconds)
        if let edgeTime { staleBefore = edgeTime }
        return ADS1115Conversion(code: code, config: config, time: now, edgeTime: edgeTime, staleDiscarded: stale)
    }

    /// Writes `config` in continuous mode and works out which results are stale.
    private mutating func startContinuous(_ config: ADS1115Config) throws(ADS1115Error) {
        var wasRunning = mayBeContinuous && written?.mode == .continuous
        var oldRate = written?.dataRate ?? config.dataRate
        if written == nil {
            // Unknown state (first use): ask the chip what it is doing.
            let (current, idle) = try readConfiguration()
            wasRunning = current.mode == .continuous || !idle
            oldRate = current.dataRate
        }
        if readyLine != nil && !readyPatternWritten { try enableConversionReadyPin() }
        try drainEdges()
        try write(.config, config.registerValue)
        let written = clock.now()
        self.written = config
        mayBeContinuous = true
        // A conversion in flight at the write finishes with the old settings.
        let inFlight: UInt64 = wasRunning ? oldRate.slowestConversionNanoseconds : 0
        nextFreshResult = written.advanced(byNanoseconds: inFlight + config.dataRate.slowestConversionNanoseconds)
        staleBefore = written
        staleEdgesToSkip = wasRunning ? 1 : 0
        if readyLine == nil && wasRunning { staleSkippedByWaiting += 1 }
    }

    /// Leaves continuous mode: writes MODE = 1 and waits for the conversion in flight to end,
    /// since OS = 1 is ignored while a conversion is in progress (SBAS444 Table 8, OS).
    public mutating func powerDown() throws(ADS1115Error) {
        var config: ADS1115Config
        if let written { config = written } else { config = try readConfiguration().config }
        config.mode = .singleShot
        let start = clock.now()
        try write(.config, config.registerValue)
        written = config
        let timeout = Self.readyTimeout(for: config.dataRate)
        try pollUntilIdle(
            rate: config.dataRate, deadline: start.advanced(byNanoseconds: timeout.ads1115Nanoseconds),
            timeout: timeout, what: "power-down after continuous conversion")
        mayBeContinuous = false
        nextFreshResult = nil
    }

    private mutating func pollUntilIdle(
        rate: ADS1115Config.DataRate, deadline: MonotonicInstant, timeout: Duration, what: String,
        expected: ADS1115Config? = nil
    ) throws(ADS1115Error) {
        // A poll is one bus transaction (~0.5 ms at 100 kHz); 1/16 of a conversion keeps the
        // added latency small without flooding the bus at low rates.
        let interval = max(rate.nominalConversionNanoseconds / 16, 100_000)
        while true {
            let (found, idle) = try readConfiguration()
            if idle {
                if let expected { try verify(found, expected: expected) }
                return
            }
            let now = clock.now()
            if now >= deadline {
                throw .notReady(
                    subject: bus.subject, waited: timeout, detail: "\(what): OS bit still 0",
                    hint: "the ADS1115 answers but never finishes a conversion; check its VDD and decoupling")
            }
            clock.sleep(until: min(now.advanced(byNanoseconds: interval), deadline))
        }
    }

    /// Reads and forgets pending edges, so the next asserting edge belongs to a new conversion.
    private mutating func drainEdges() throws(ADS1115Error) {
        guard let line = readyLine else { return }
        while try waitForEdges(on: line, timeout: .zero) {
            try readEdges(from: line)
        }
    }

    /// Waits for an asserting ALERT/RDY edge stamped after `after`, first letting `skip`
    /// asserting edges go by as stale (each counted in `stale`).
    /// - Returns: the kernel timestamp of the newest fresh edge; older ones in the same batch
    ///   mark conversions the chip has already overwritten.
    private mutating func waitForAssertingEdge(
        after: MonotonicInstant, polarity: ADS1115Config.ComparatorPolarity,
        timeout: Duration, skip: inout UInt32, stale: inout UInt32
    ) throws(ADS1115Error) -> MonotonicInstant {
        guard let line = readyLine else { return clock.now() }
        let asserting = polarity.assertingEdge
        let deadline = clock.now().advanced(byNanoseconds: timeout.ads1115Nanoseconds)
        while true {
            let remaining = deadline.nanoseconds(since: clock.now())
            if try waitForEdges(on: line, timeout: .nanoseconds(Int64(remaining))) {
                try readEdges(from: line)
                var fresh: MonotonicInstant?
                for edge in events where edge.kind == asserting && edge.timestamp > after {
                    if skip > 0 {
                        skip -= 1
                        stale += 1
                    } else {
                        fresh = edge.timestamp
                    }
                }
                if let fresh { return fresh }
                continue
            }
            if clock.now() >= deadline {
                throw .notReady(
                    subject: bus.subject, waited: timeout,
                    detail: "no conversion-ready \(asserting) edge on ALERT/RDY",
                    hint: "check the ALERT/RDY wire, its pull-up, and that the GPIO line reports \(asserting) edges")
            }
        }
    }

    private mutating func waitForEdges(on line: Ready, timeout: Duration) throws(ADS1115Error) -> Bool {
        operations &+= 1
        do { return try line.waitForEdgeEvents(timeout: timeout) } catch { throw .hardware(error) }
    }

    private mutating func readEdges(from line: Ready) throws(ADS1115Error) {
        operations &+= 1
        events.removeAll(keepingCapacity: true)
        do { _ = try line.readEdgeEvents(into: &events) } catch { throw .hardware(error) }
    }
}

extension ADS1115 where Ready == NoReadyLine {
    /// A driver that polls the OS bit and has no ALERT/RDY line.
    public init(bus: Bus, clock: Time) {
        self.init(bus: bus, clock: clock, readyLine: nil)
    }
}

extension Duration {
    /// Whole nanoseconds, zero for negative durations (the driver's deadlines are UInt64).
    fileprivate var ads1115Nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
