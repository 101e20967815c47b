public import PlumDrivers
public import PlumHardware

/// A register-level model of the TI ADS1115 on an SMBus, with its ALERT/RDY pin.
///
/// What it models, after SBAS444:
/// - the address pointer (§9.6.1): the SMBus command byte of each transfer selects
///   Conversion, Config, Lo_thresh or Hi_thresh (P[1:0]);
/// - byte order (§9.5.3): the chip sends and receives registers MSB first; the model builds the
///   bytes on the wire and assembles them as SMBus does, so ``readWord(register:)`` returns what
///   `i2c_smbus_read_word_data` returns from a real chip (the first byte in the low 8 bits);
/// - reset values (§9.6): Config 8583h, Lo_thresh 8000h, Hi_thresh 7FFFh, Conversion 0000h;
/// - OS (Table 8): reads 0 while converting and 1 when idle; writing 1 in power-down starts a
///   single shot; writing it during a conversion does nothing;
/// - timing (§9.3.6, §7.5): a conversion takes 1/DR stretched by the oscillator's error
///   (±10 % on real parts), measured on the shared ``MonotonicClock``; continuous mode starts
///   the next conversion as one ends, and a conversion in flight when the settings change
///   finishes with the old ones; leaving continuous mode powers down after the current one;
/// - inputs (§9.3.1, §9.3.2): each pin is an ``AnalogSignal``, clamped to GND − 0.3 V and
///   VDD + 0.3 V by the ESD diodes, sampled at the middle of the conversion;
/// - codes: clipped at the full-scale range to 7FFFh and 8000h; noise drawn per conversion
///   from a seeded generator, with the peak-to-peak noise of §8.1 Table 1 (VDD = 3.3 V) taken
///   as 6.6 σ;
/// - ALERT/RDY (§9.3.8): with Hi_thresh MSB 1, Lo_thresh MSB 0 and COMP_QUE ≠ 11b it shows the
///   OS bit in single-shot mode and pulses for about 8 µs after each conversion in continuous
///   mode, at the COMP_POL level; with COMP_QUE = 11b it is high-impedance (pulled high). The
///   traditional and window comparator (§9.3.7) drive the pin otherwise, with COMP_QUE and
///   COMP_LAT; the SMBus alert response is not modelled;
/// - bus time: each transfer takes its bits at ``busClockHertz`` on the clock;
/// - faults: ``I2CFault`` on the bus, and ``conversionStuck`` (OS never sets, no RDY edge).
///
/// It is used from one thread (the sensor's sampler), like the driver it serves.
public final class ADS1115Model<Clock: MonotonicClock>: SMBusDevice {
    /// One SMBus transfer as it went over the wire.
    public struct WireTransfer: Hashable, Sendable {
        public enum Direction: Hashable, Sendable { case read, write }
        public var direction: Direction
        /// The command byte: the address pointer.
        public var command: UInt8
        /// The data bytes in wire order.
        public var bytes: [UInt8]
    }

    /// The four analog inputs.
    public enum Input: Int, CaseIterable, Hashable, Sendable {
        case ain0 = 0
        case ain1, ain2, ain3

        /// The MUX setting that measures this input against GND.
        public var singleEnded: ADS1115Config.Mux {
            switch self {
            case .ain0: .ain0
            case .ain1: .ain1
            case .ain2: .ain2
            case .ain3: .ain3
            }
        }
    }

    public let clock: Clock
    /// The supply: inputs are clamped to −0.3 V … VDD + 0.3 V.
    public var supplyVolts: Double
    /// How far the internal oscillator is off: +0.05 makes conversions 5 % faster. Real parts
    /// stay within ±0.10.
    public var oscillatorError: Double
    /// The SCL frequency transfers are timed at; `nil` makes transfers take no time.
    public var busClockHertz: Double?
    /// When `true`, conversions in flight never finish: OS stays 0 and ALERT/RDY never asserts.
    public var conversionStuck = false
    /// Whether noise is added to conversions.
    public var noiseEnabled = true
    /// The edges the GPIO line on ALERT/RDY was requested to report.
    public var alertEdgeDetection: EdgeDetection = .both
    /// The GPIO line offset reported in edge events.
    public var alertLineOffset: UInt32 = 0

    /// Every SMBus transfer attempted, including failed ones.
    public private(set) var transfers: UInt64 = 0
    /// The last transfer that reached the chip.
    public private(set) var lastTransfer: WireTransfer?
    /// Conversions completed since power-on, up to now.
    public var conversionsCompleted: UInt64 {
        advance(to: clock.now())
        return completed
    }
    /// The bus faults in force.
    public private(set) var faults: I2CFault.Injector

    // The state below that is not private is internal only for the ALERT/RDY side of the model
    // in ADS1115Model+AlertPin.swift; nothing outside the model uses it.
    private var inputs: [any AnalogSignal]
    private var random: SeededRandom
    private var completed: UInt64 = 0
    private var pointer: UInt8 = 0
    var configBits: UInt16 = 0x0583
    private var conversionRegister: UInt16 = 0x0000
    var loThresh: UInt16 = 0x8000
    var hiThresh: UInt16 = 0x7FFF
    var inFlight: Conversion?
    private var powerDownAfterCurrent = false
    private var updatedTo: MonotonicInstant
    var pinHigh = true
    var pulseEnd: MonotonicInstant?
    var pendingEdges: [EdgeEvent] = []
    /// The digital comparator: conversions in a row beyond the thresholds, and its output.
    var beyondCount = 0
    var comparatorAsserted = false

    struct Conversion {
        var start: MonotonicInstant
        var end: MonotonicInstant
        var config: ADS1115Config
    }

    /// - Parameters:
    ///   - clock: the clock shared with the driver (``VirtualClock`` in tests, ``SystemMonotonicClock``
    ///     for a real-time simulation).
    ///   - busNumber: the N of /dev/i2c-N, for messages.
    ///   - address: 0x48–0x4B.
    ///   - supplyVolts: VDD.
    ///   - oscillatorError: the data-rate error, −0.1…0.1.
    ///   - seed: the noise generator's seed.
    public init(
        clock: Clock, busNumber: Int = 1, address: UInt8 = 0x48, supplyVolts: Double = 3.3,
        oscillatorError: Double = 0, busClockHertz: Double? = 100_000, seed: UInt64 = 0x0AD5_1115
    ) {
        self.clock = clock
        self.supplyVolts = supplyVolts
        self.oscillatorError = oscillatorError
        self.busClockHertz = busClockHertz
        faults = I2CFault.Injector(busNumber: busNumber, address: address)
        inputs = Array(repeating: ConstantVolts(0), count: 4)
        random = SeededRandom(seed: seed)
        updatedTo = clock.now()
        pendingEdges.reserveCapacity(Self.edgeBufferSize)
    }

    /// "i2c-1 address 0x48".
    public var subject: String { faults.subject }

    /// Connects a signal to an input pin.
    public func connect(_ signal: any AnalogSignal, to input: Input) {
        inputs[input.rawValue] = signal
    }

    public func inject(_ fault: I2CFault) { faults.inject(fault) }
    public func clearFaults() {
        faults.clear()
        conversionStuck = false
    }

    /// A supply dip: every register returns to its reset value and any conversion is lost
    /// (SBAS444 §9.4.1), as after a brown-out on a long or loose VDD wire.
    public func powerCycle() {
        let now = clock.now()
        advance(to: now)
        configBits = 0x0583
        conversionRegister = 0
        loThresh = 0x8000
        hiThresh = 0x7FFF
        pointer = 0
        inFlight = nil
        powerDownAfterCurrent = false
        pulseEnd = nil
        beyondCount = 0
        comparatorAsserted = false
        refreshPin(at: now)
    }

    /// The register's current value, as the chip holds it (no bus transfer, no fault).
    public func registerValue(_ register: ADS1115Register) -> UInt16 {
        advance(to: clock.now())
        return value(of: register.rawValue)
    }

    // MARK: SMBus

    public func readWord(register: UInt8) throws(HardwareError) -> UInt16 {
        let bytes = try transfer(.read, command: register, operation: "reading word", dataBytes: 2)
        // SMBus read word: the first byte received becomes the low byte (i2c_smbus_read_word_data).
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }

    public func writeWord(register: UInt8, _ value: UInt16) throws(HardwareError) {
        // SMBus write word: the low byte goes on the wire first.
        let wire = [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        _ = try transfer(.write, command: register, operation: "writing word", dataBytes: 2, written: wire)
    }

    /// SMBus read byte: the chip sends its register MSB first, so one byte is the MSB.
    public func readByte(register: UInt8) throws(HardwareError) -> UInt8 {
        try transfer(.read, command: register, operation: "reading byte", dataBytes: 1)[0]
    }

    /// SMBus write byte: one data byte is half a register, so the chip only moves its pointer.
    public func writeByte(register: UInt8, _ value: UInt8) throws(HardwareError) {
        _ = try transfer(.write, command: register, operation: "writing byte", dataBytes: 1, written: [value])
    }

    /// I2C block read: the pointer does not auto-increment, so the register repeats.
    public func readBlock(register: UInt8, count: Int) throws(HardwareError) -> [UInt8] {
        guard (1...32).contains(count) else {
            throw HardwareError(
                .invalidRequest, operation: "reading block", subject: subject,
                detail: "\(count) bytes asked for; SMBus blocks hold 1 to 32")
        }
        return try transfer(.read, command: register, operation: "reading block", dataBytes: count)
    }

    /// I2C block write: the first two bytes fill the register, MSB first.
    public func writeBlock(register: UInt8, _ bytes: [UInt8]) throws(HardwareError) {
        guard bytes.count <= 32 else {
            throw HardwareError(
                .invalidRequest, operation: "writing block", subject: subject,
                detail: "\(bytes.count) bytes given; SMBus blocks hold at most 32")
        }
        _ = try transfer(.write, command: register, operation: "writing block", dataBytes: bytes.count, written: bytes)
    }

    private func transfer(
        _ direction: WireTransfer.Direction, command: UInt8, operation: String, dataBytes: Int, written: [UInt8] = []
    ) throws(HardwareError) -> [UInt8] {
        transfers &+= 1
        let hex = String(command, radix: 16)
        let words = "\(operation) 0x\(hex.count < 2 ? "0" + hex : hex) at"
        do {
            try faults.check(operation: words)
        } catch {
            // A NAK ends the transfer after the address byte.
            spendBusTime(bits: 1 + 9 + 1)
            advance(to: clock.now())
            throw error
        }
        // START, address+W, command, (repeated START, address+R,) data, STOP.
        let bits = 1 + 9 + 9 + (direction == .read ? 1 + 9 : 0) + 9 * dataBytes + 1
        spendBusTime(bits: bits)
        advance(to: clock.now())
        pointer = command & 0x03
        switch direction {
        case .read:
            if pointer == 0 && comparatorAsserted && configBits & 0x4 != 0 {
                // Reading Conversion clears a latched alert (SBAS444 §9.3.7).
                comparatorAsserted = false
                refreshPin(at: clock.now())
            }
            let value = value(of: pointer)
            let register = [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
            let wire = (0..<dataBytes).map { register[$0 % 2] }
            lastTransfer = WireTransfer(direction: .read, command: command, bytes: wire)
            return wire
        case .write:
            lastTransfer = WireTransfer(direction: .write, command: command, bytes: written)
            if written.count >= 2 {
                receive(UInt16(written[0]) << 8 | UInt16(written[1]), into: pointer, at: clock.now())
            }
            return []
        }
    }

    private func spendBusTime(bits: Int) {
        guard let hertz = busClockHertz, hertz > 0 else { return }
        let nanoseconds = UInt64((Double(bits) / hertz * 1e9).rounded(.up))
        clock.sleep(until: clock.now().advanced(byNanoseconds: nanoseconds))
    }

    private func value(of pointer: UInt8) -> UInt16 {
        switch pointer {
        case 0: return conversionRegister
        case 1: return configBits | (inFlight == nil ? ADS1115Config.operationalStatusBit : 0)
        case 2: return loThresh
        default: return hiThresh
        }
    }

    private func receive(_ value: UInt16, into pointer: UInt8, at now: MonotonicInstant) {
        switch pointer {
        case 0:
            return  // Conversion is read-only.
        case 1:
            configBits = value & 0x7FFF
            let config = ADS1115Config(registerValue: configBits)
            if config.mode == .continuous {
                powerDownAfterCurrent = false
                if inFlight == nil { startConversion(at: now, config: config) }
            } else if inFlight != nil {
                // OS is ignored during a conversion; continuous mode ends after the current one.
                powerDownAfterCurrent = true
            } else if value & ADS1115Config.operationalStatusBit != 0 {
                startConversion(at: now, config: config)
            }
        case 2:
            loThresh = value
        default:
            hiThresh = value
        }
        refreshPin(at: now)
    }

    // MARK: Conversions

    private func period(_ rate: ADS1115Config.DataRate) -> UInt64 {
        let seconds = 1 / (Double(rate.samplesPerSecond) * (1 + oscillatorError))
        return UInt64((seconds * 1e9).rounded())
    }

    private func startConversion(at time: MonotonicInstant, config: ADS1115Config) {
        inFlight = Conversion(start: time, end: time.advanced(byNanoseconds: period(config.dataRate)), config: config)
        if readyFunctionEnabled && config.mode == .singleShot { setPin(high: !assertedHigh, at: time) }
    }

    /// Brings the chip's state up to `now`: finished conversions, RDY pulses.
    func advance(to now: MonotonicInstant) {
        guard now >= updatedTo else { return }
        while true {
            let nextEnd = conversionStuck ? nil : inFlight.map(\.end)
            if let pulse = pulseEnd, pulse <= now, pulse <= (nextEnd ?? pulse) {
                pulseEnd = nil
                setPin(high: !assertedHigh, at: pulse)
                continue
            }
            guard let conversion = inFlight, let end = nextEnd, end <= now else { break }
            complete(conversion, at: end)
        }
        updatedTo = now
    }

    private func complete(_ conversion: Conversion, at end: MonotonicInstant) {
        conversionRegister = UInt16(bitPattern: code(for: conversion))
        completed &+= 1
        let current = ADS1115Config(registerValue: configBits)
        let continuing = current.mode == .continuous && !powerDownAfterCurrent
        inFlight = nil
        if continuing {
            startConversion(at: end, config: current)
        } else {
            powerDownAfterCurrent = false
        }
        guard readyFunctionEnabled else {
            compare(Int16(bitPattern: conversionRegister), at: end)
            return
        }
        setPin(high: assertedHigh, at: end)
        if conversion.config.mode == .continuous && continuing {
            pulseEnd = end.advanced(byNanoseconds: Self.readyPulseNanoseconds)
        }
    }

    private func code(for conversion: Conversion) -> Int16 {
        let middle = conversion.start.advanced(byNanoseconds: conversion.end.nanoseconds(since: conversion.start) / 2)
        let mux = conversion.config.mux
        var volts = pinVolts(mux.positiveInput, at: middle)
        if let negative = mux.negativeInput { volts -= pinVolts(negative, at: middle) }
        let gain = conversion.config.gain
        if noiseEnabled {
            volts += random.gaussian() * Self.noisePeakToPeakMicrovolts(conversion.config.dataRate, gain) * 1e-6 / 6.6
        }
        let counts = (volts / gain.lsbVolts).rounded()
        if counts >= 32767 { return Int16.max }
        if counts <= -32768 { return Int16.min }
        return Int16(counts)
    }

    private func pinVolts(_ input: Int, at time: MonotonicInstant) -> Double {
        let volts = inputs[input].volts(at: time)
        if volts.isNaN { return 0 }
        return min(max(volts, -0.3), supplyVolts + 0.3)
    }

    /// Peak-to-peak noise in µV at VDD = 3.3 V (SBAS444 §8.1, Table 1), by data rate and range.
    /// Up to 128 SPS the noise is below one code, so the table lists one LSB.
    public static func noisePeakToPeakMicrovolts(
        _ rate: ADS1115Config.DataRate, _ gain: ADS1115Config.ProgrammableGain
    ) -> Double {
        let column = Int(gain.rawValue)
        switch rate {
        case .sps8, .sps16, .sps32, .sps64, .sps128:
            return gain.lsbVolts * 1e6
        case .sps250:
            return [252.09, 148.28, 84.03, 39.54, 16.06, 7.81][column]
        case .sps475:
            return [266.92, 227.38, 140.84, 63.24, 25.96, 13.92][column]
        case .sps860:
            return [433.44, 347.41, 223.46, 123.26, 74.28, 36.35][column]
        }
    }
}
