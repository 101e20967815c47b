public import PlumDrivers
public import PlumHardware

/// A bit-accurate Avia HX711 at its two pins, which the real driver runs against unchanged.
///
/// It vends ``clockLine`` (PD_SCK, a `GPIOOutputLine`) and ``dataLine`` (DOUT, a
/// `GPIOEdgeLine` with kernel-style edge events) sharing one chip state, and follows the
/// datasheet's "Serial Interface", "Power Down Control" and "Output Data Rate and Format":
///
/// - Conversions complete every 100 ms (10 SPS) or 12.5 ms (80 SPS) from power-up; each one
///   pulls DOUT low (a falling edge event stamped with the conversion instant).
/// - Each PD_SCK rising edge shifts out the next bit, MSB first, 24-bit two's complement; the
///   25th pulls DOUT high. A read of 25, 26 or 27 pulses selects channel A gain 128, channel B
///   gain 32 or channel A gain 64 for the conversions that complete after the read.
/// - **Serial error** (the datasheet: "PD_SCK clock pulses should not be less than 25 or more
///   than 27 within one conversion period"): this model defines it as follows. A pulse count of
///   1–24 or over 27 by the time the next conversion completes latches no selection (the
///   previous input and gain stay) and is counted in ``Counters/serialErrors``; after fewer than
///   25 pulses DOUT keeps showing the last bit shifted out until that conversion completes.
/// - **A conversion that completes during a read-out replaces the output register**: the
///   word being shifted out is replaced by the new one and the shift starts again at its MSB,
///   pulling DOUT low. The read-out under way then gets the first bits of one conversion and
///   the first bits of the next, and the pulse count the chip saw is short (a serial error);
///   the check of DOUT after the gain pulses lands on a data bit of the new word and passes
///   whenever that bit is 1. On a real chip this follows a read-out that outlasts the
///   conversion period, such as one preempted between two pulses.
/// - PD_SCK high for longer than ``Configuration/powerDownThreshold`` (60 µs) powers the chip
///   down (DOUT high, no conversions); PD_SCK low again powers it up: reset to channel A
///   gain 128, conversions restart one period later.
/// - After power-up, reset or a change of input or gain, the first
///   ``Configuration/settlingConversions`` conversions are unsettled: the digital filter
///   moves from its old output to the new input in equal steps.
/// - The input: grams from a ``LoadProfile`` through a ``LoadCell`` excited by AVDD on channel
///   A, a fixed voltage on channel B; plus Gaussian noise of the datasheet's input-referred
///   50 nV rms (10 SPS) or 90 nV rms (80 SPS) at gain 128; then gain, full scale ±0.5·AVDD/gain
///   and 24-bit codes that stick at 0x7FFFFF and 0x800000.
///
/// Time comes from `Clock`. With a ``VirtualClock`` every line operation costs
/// ``Configuration/operationCost`` of virtual time and waiting for an edge jumps the clock to
/// the conversion or the timeout, so tests are exact and fast. With `SystemMonotonicClock` the
/// model runs in real time (`plumscale raw --simulate`): waiting sleeps until the conversion.
///
/// The model is used from one thread, the sampler's, like the lines of a real chip.
public final class HX711Model<Clock: MonotonicClock> {
    /// One conversion the chip completed.
    public struct Conversion: Hashable, Sendable {
        /// Counts every conversion since the model was created, from 1.
        public var serial: UInt64
        public var time: MonotonicInstant
        /// The 24-bit code, sign-extended.
        public var code: Int32
        public var gain: HX711Gain
        /// False for the conversions after power-up or a gain change.
        public var settled: Bool
        /// The differential input before noise, in volts.
        public var inputVolts: Double
        /// PD_SCK pulses the chip counted while this was its newest conversion (until the next one
        /// completed, or up to now): 0 for a conversion nobody began to clock out before the next
        /// overwrote it.
        public var pulses: Int = 0
    }

    /// What the chip has seen, for tests.
    public struct Counters: Hashable, Sendable {
        public var risingEdges: UInt64 = 0
        public var conversions: UInt64 = 0
        public var serialErrors: UInt64 = 0
        public var powerDowns: UInt64 = 0
        public var powerUps: UInt64 = 0
        /// Line faults that took effect (a glitch, a stretch, a missed or extra pulse).
        public var faultsApplied: UInt64 = 0
        /// Conversions that completed while a word was being shifted out (1 to 24 pulses
        /// given) and replaced it: the read-out under way got bits of two conversions.
        public var wordsReplaced: UInt64 = 0
    }

    public let clock: Clock
    public let configuration: Configuration
    /// The load on the cell; may be replaced between reads. An existential is fine here: it is
    /// asked once per conversion, never inside the bit loop.
    public var load: any LoadProfile
    public private(set) var loadCell: LoadCell
    public internal(set) var counters = Counters()
    public private(set) var lastConversion: Conversion?
    /// The most recent conversions, oldest first, up to ``Configuration/conversionLogLimit``.
    public private(set) var conversionLog: [Conversion] = []

    private var random: SeededRandom
    // The state below is internal, not private, only for the pins' side of the model in
    // HX711Model+Pins.swift; nothing outside the model uses it.
    var faults: [(fault: HX711Fault, window: HX711FaultWindow)] = []
    var events: [EdgeEvent] = []

    // Chip state.
    var sckHigh = false
    var sckRise = MonotonicInstant(nanoseconds: 0)
    var powered = true
    private var nextReady: MonotonicInstant
    private var serial: UInt64 = 0
    private var outputCode: Int32 = 0
    /// A conversion has completed since power-up, so pulses shift its bits.
    private var haveConversion = false
    /// Pulses the chip counted since the last conversion completed.
    private var pulses = 0
    /// Pulses the driver gave since the last conversion completed (fault numbering).
    var driverPulses = 0
    /// What the chip drives on DOUT.
    private var doutLevel = true
    /// What the line shows: high while a stuck-high fault holds it.
    var lineLevel = true
    var stuckHigh = false
    var glitchUsed = false
    var preemptionUsed = false
    private var activeGain: HX711Gain = .channelA128
    private var settlingDone = 0
    private var rampStart: Double = 0

    /// Powers the chip up at the clock's present instant, converting channel A at gain 128.
    public init(clock: Clock, load: any LoadProfile, configuration: Configuration = Configuration()) {
        self.clock = clock
        self.configuration = configuration
        self.load = load
        loadCell = configuration.loadCell
        random = SeededRandom(seed: configuration.seed)
        nextReady = clock.now().advanced(byNanoseconds: configuration.rate.period.nanoseconds)
        events.reserveCapacity(Self.eventQueueCapacity)
        counters.powerUps = 1
    }

    /// The kernel buffers 16 events per requested line (gpiolib-cdev) and, in the v2 uAPI,
    /// drops the oldest when the buffer is full; so does the model.
    public static var eventQueueCapacity: Int { 16 }

    /// PD_SCK.
    public var clockLine: ClockLine { ClockLine(model: self) }
    /// DOUT.
    public var dataLine: DataLine { DataLine(model: self) }

    /// Schedules a fault.
    public func inject(_ fault: HX711Fault, _ window: HX711Fault.Window) {
        switch window {
        case .from(let start, let end):
            faults.append((fault, .time(start, end)))
        case .nextConversions(let count):
            guard count > 0 else { return }
            faults.append((fault, .serials((serial + 1)...(serial + UInt64(count)))))
        }
    }

    /// Removes every scheduled fault.
    public func clearFaults() { faults.removeAll() }

    /// Full scale at a gain, in volts: ±0.5·AVDD/gain (datasheet "Analog Inputs").
    public func fullScaleVolts(gain: HX711Gain) -> Double { 0.5 * configuration.avdd / Double(gain.gain) }

    /// The code an input voltage converts to at a gain, without noise, with saturation.
    public func code(forVolts volts: Double, gain: HX711Gain) -> Int32 {
        Self.clampedCode(volts / fullScaleVolts(gain: gain) * 8_388_608)
    }

    /// The input-referred noise at a gain, in volts rms.
    public func inputNoiseVolts(gain: HX711Gain) -> Double {
        (configuration.inputNoise ?? configuration.rate.datasheetInputNoise) * 128 / Double(gain.gain)
    }

    // MARK: - Chip state machine

    func spend() {
        let cost = configuration.operationCost.nanoseconds
        if cost > 0 { clock.sleep(until: clock.now().advanced(byNanoseconds: cost)) }
    }

    private var period: UInt64 { configuration.rate.period.nanoseconds }

    /// The next instant the chip changes by itself: a conversion, or powering down.
    func nextChange() -> MonotonicInstant? {
        guard powered else { return nil }
        if sckHigh { return min(nextReady, powerDownInstant) }
        return nextReady
    }

    private var powerDownInstant: MonotonicInstant {
        // "Longer than 60 µs": the first nanosecond past the threshold.
        sckRise.advanced(byNanoseconds: configuration.powerDownThreshold.nanoseconds + 1)
    }

    /// Brings the chip up to the clock's present: conversions that completed, a power-down.
    func catchUp() {
        guard powered else { return }
        let now = clock.now()
        var limit = now
        var downAt: MonotonicInstant?
        if sckHigh, powerDownInstant <= now {
            downAt = powerDownInstant
            limit = powerDownInstant
        }
        // Nobody can have seen conversions older than the last few: skip them (a real-time
        // simulation left idle for an hour does not replay it).
        let backlog = limit.nanoseconds(since: nextReady) / period
        if backlog > 8 {
            // The first one still latches a pending read's gain selection.
            completeConversion(at: nextReady)
            let skipped = backlog - 4
            serial &+= skipped
            counters.conversions &+= skipped
            settlingDone = min(settlingDone + Int(skipped), configuration.settlingConversions)
            nextReady = nextReady.advanced(byNanoseconds: (skipped + 1) * period)
        }
        while nextReady <= limit {
            completeConversion(at: nextReady)
            nextReady = nextReady.advanced(byNanoseconds: period)
        }
        if let downAt { powerDown(at: downAt) }
    }

    func countPulse(at time: MonotonicInstant) {
        pulses += 1
        guard haveConversion else { return }
        lastConversion?.pulses = pulses
        if !conversionLog.isEmpty { conversionLog[conversionLog.count - 1].pulses = pulses }
        if pulses <= 24 {
            setDout((UInt32(bitPattern: outputCode) >> UInt32(24 - pulses)) & 1 == 1, at: time)
        } else if pulses == 25 {
            setDout(true, at: time)
        }
    }

    private func completeConversion(at time: MonotonicInstant) {
        if haveConversion, (1...24).contains(pulses) { counters.wordsReplaced &+= 1 }
        // The previous read's pulse count selects this conversion's input and gain.
        if haveConversion, (25...27).contains(pulses), let selected = HX711Gain(rawValue: UInt8(pulses)) {
            if selected != activeGain {
                activeGain = selected
                startSettling()
            }
        } else if pulses != 0 {
            counters.serialErrors &+= 1
        }
        serial &+= 1
        counters.conversions &+= 1

        var positiveSaturation: Bool?
        var stuck = false
        for (fault, window) in faults where isActive(window, serial: serial, time: time) {
            switch fault {
            case .saturation(let positive): positiveSaturation = positive
            case .doutStuckHigh: stuck = true
            default: break
            }
        }
        if stuck != stuckHigh {
            stuckHigh = stuck
            updateLine(at: time)
        }
        var volts: Double
        if activeGain == .channelB32 {
            volts = configuration.channelBVolts
        } else {
            volts = loadCell.outputVolts(grams: load.grams(at: time), excitation: configuration.avdd, at: time)
        }
        if let positive = positiveSaturation {
            volts = (positive ? 2 : -2) * fullScaleVolts(gain: activeGain)
        }
        let noisy = volts + random.gaussian() * inputNoiseVolts(gain: activeGain)
        var exact = noisy / fullScaleVolts(gain: activeGain) * 8_388_608
        let settled = settlingDone >= configuration.settlingConversions
        if !settled {
            settlingDone += 1
            let fraction = Double(settlingDone) / Double(configuration.settlingConversions + 1)
            exact = rampStart + (exact - rampStart) * fraction
        }
        outputCode = Self.clampedCode(exact)
        haveConversion = true
        pulses = 0
        driverPulses = 0
        glitchUsed = false
        preemptionUsed = false
        setDout(false, at: time)

        let conversion = Conversion(
            serial: serial, time: time, code: outputCode, gain: activeGain, settled: settled, inputVolts: volts)
        lastConversion = conversion
        if configuration.conversionLogLimit > 0 {
            if conversionLog.count >= configuration.conversionLogLimit { conversionLog.removeFirst() }
            conversionLog.append(conversion)
        }
    }

    private func startSettling() {
        // The filter starts from where its output was.
        rampStart = Double(outputCode)
        settlingDone = 0
    }

    private func powerDown(at time: MonotonicInstant) {
        powered = false
        haveConversion = false
        setDout(true, at: time)
        counters.powerDowns &+= 1
    }

    func powerUp(at time: MonotonicInstant) {
        powered = true
        activeGain = .channelA128
        outputCode = 0
        startSettling()
        pulses = 0
        driverPulses = 0
        nextReady = time.advanced(byNanoseconds: period)
        counters.powerUps &+= 1
    }

    private func setDout(_ level: Bool, at time: MonotonicInstant) {
        doutLevel = level
        updateLine(at: time)
    }

    /// Queues an edge event when the level the line shows changes.
    private func updateLine(at time: MonotonicInstant) {
        let level = stuckHigh || doutLevel
        guard level != lineLevel else { return }
        lineLevel = level
        let kind: EdgeKind = level ? .rising : .falling
        switch configuration.edgeDetection {
        case .none: return
        case .rising where kind == .falling: return
        case .falling where kind == .rising: return
        default: break
        }
        if events.count >= Self.eventQueueCapacity { events.removeFirst() }
        events.append(EdgeEvent(kind: kind, timestamp: time, offset: configuration.doutOffset))
    }

    func isActive(_ window: HX711FaultWindow) -> Bool {
        isActive(window, serial: serial, time: lastConversion?.time ?? MonotonicInstant(nanoseconds: 0))
    }

    private func isActive(_ window: HX711FaultWindow, serial: UInt64, time: MonotonicInstant) -> Bool {
        guard serial > 0 else { return false }
        switch window {
        case .time(let start, let end):
            return time >= start && (end.map { time < $0 } ?? true)
        case .serials(let range):
            return range.contains(serial)
        }
    }

    private static func clampedCode(_ exact: Double) -> Int32 {
        // A load profile that returns NaN (or an AVDD of zero) must not trap the sampler.
        guard !exact.isNaN else { return 0 }
        let rounded = exact.rounded()
        if rounded >= 8_388_607 { return 0x7F_FFFF }
        if rounded <= -8_388_608 { return -0x80_0000 }
        return Int32(rounded)
    }
}

/// When a scheduled fault applies, resolved to instants or conversion serials. Outside the
/// generic model, so reading the fault list in the bit loop needs no generic metadata lookup.
enum HX711FaultWindow {
    case time(MonotonicInstant, MonotonicInstant?)
    case serials(ClosedRange<UInt64>)
}
