public import PlumHardware

/// Reads an Avia HX711 24-bit load-cell ADC by bit-banging PD_SCK and watching DOUT.
///
/// Mirrors the datasheet's "Serial Interface" section and the loop of the Linux kernel's
/// `drivers/iio/adc/hx711.c` (`hx711_read`, `hx711_cycle`), with the integrity checks a
/// user-space driver on a preemptible kernel needs:
///
/// - It waits for the conversion on DOUT's falling edge as a kernel event with a timeout: no
///   busy-waiting and no sleep-polling. A timeout is ``SensorError/notReady(sensor:waited:hint:)``,
///   never a value.
/// - It times every PD_SCK high period with the monotonic clock, from before the rising edge
///   to after the falling edge (an upper bound). A period over ``HX711Configuration/clockHighLimit``
///   may have shifted bits or powered the chip down (over 60 µs), so the conversion is discarded
///   and the driver resets the chip to a known state and discards its settling conversions.
/// - With ``HX711Configuration/verifyBits`` it reads each bit again after PD_SCK falls (the chip
///   holds it until the next rising edge) and discards the conversion when the two disagree.
/// - After the gain pulses DOUT must be high (the 25th pulse pulls it high; ESPHome's check);
///   otherwise the chip saw a different pulse count, the conversion is discarded and the chip reset.
/// - It times each whole read-out, from the kernel's timestamp of the ready edge to the end of
///   the last pulse, against ``HX711Configuration/readoutLimit`` (three quarters of a conversion
///   period). A read-out that outlasts it, or whose ready edge was not seen, is discarded as
///   late: the next conversion may have replaced the word under the clock, which no bit check
///   sees (a preempted sampler in a PD_SCK *low* phase does this, and the high-time limit
///   cannot see that either). The chip is reset only when its state is unknown: the DOUT check
///   failed, or at gain 32 or 64, where a split read-out can select another gain (see
///   `lateReadoutKeepsGain`). Otherwise only the word is lost, as with a bit mismatch.
/// - It counts the conversions the chip overwrote before they were read (the sampler was away
///   for more than a period) from the kernel's timestamps of the ready edges and the conversion
///   period, as `missedConversion` (see `HX711ConversionTracker`): every conversion the chip
///   completed is then published or counted once, under one reason.
/// - Conversions after power-up, reset or a gain change are settling and discarded.
///
/// The type is generic over its lines and clock, never `any`, and its read path is
/// `@inlinable`: specialised where the concrete lines are chosen, the bit loop is straight code
/// with no existential boxes and no allocation; the edge-event array is reused across reads.
/// It is used from one thread, the sensor's sampler.
public struct HX711<Clock: GPIOOutputLine, Data: GPIOEdgeLine, Time: MonotonicClock> {
    /// The sensor's name, for errors.
    public let name: String
    /// PD_SCK.
    public let clockLine: Clock
    /// DOUT, with falling-edge events.
    public let dataLine: Data
    public let time: Time
    public var configuration: HX711Configuration { settings }
    /// Running totals since the driver was created.
    public var statistics: DriverStatistics { totals }

    /// Failed read-outs (a stretched clock, a failed check, a late read-out; not settling) in a
    /// row before a read gives up with an error: a chip that fails every check is miswired, not
    /// unlucky. The next read resets the chip first.
    public static var consecutiveFailureLimit: Int { 8 }

    // The read path is @inlinable (with its state @usableFromInline) so that it specialises
    // in the module that picks the concrete lines: the sampler's loop then has no witness-table
    // calls. Nothing here is API.
    @usableFromInline var settings: HX711Configuration
    @usableFromInline var totals = DriverStatistics()
    @usableFromInline var events: [EdgeEvent] = []
    /// The input and gain the conversion now in the chip was taken with; `nil` when unknown.
    @usableFromInline var conversionGain: HX711Gain?
    /// Conversions still to discard as settling.
    @usableFromInline var settlingRemaining = 0
    @usableFromInline var pendingDiscards = DiscardCounts()
    /// When the previous read's last PD_SCK pulse ended: edges before it are data bits.
    @usableFromInline var lastReadEnd: MonotonicInstant?
    /// The chip's state is unknown (first read, after a timeout or power-down): reset first.
    @usableFromInline var needsReset = true
    /// Counts the conversions the chip overwrote before they were read.
    @usableFromInline var conversions: HX711ConversionTracker

    /// Creates a driver; nothing is sent to the chip until the first ``read()``.
    /// - Throws: ``HX711ConfigurationError`` when the configuration is not usable.
    public init(
        name: String, clockLine: Clock, dataLine: Data, time: Time,
        configuration: HX711Configuration = HX711Configuration()
    ) throws(HX711ConfigurationError) {
        self.name = name
        self.clockLine = clockLine
        self.dataLine = dataLine
        self.time = time
        settings = try configuration.validated()
        conversions = HX711ConversionTracker(nominalPeriod: Self.nanoseconds(settings.rate.period))
        // Enough for every edge of a read (24 bits make at most 24 falling edges) and the
        // ready edge, so steady-state reads never grow it.
        events.reserveCapacity(64)
    }

    /// Reads the next trusted conversion, discarding (and counting) any that fail a check.
    /// - Returns: a sample whose `discarded` counts the conversions thrown away since the last one.
    /// - Throws: ``SensorError/notReady(sensor:waited:hint:)`` when DOUT does not go low in
    ///   time; ``SensorError/hardware(sensor:_:)`` when a line operation fails or every
    ///   conversion keeps failing its checks.
    @inlinable
    public mutating func read() throws(SensorError) -> Sample {
        if needsReset { try reset() }
        var failuresInARow = 0
        while true {
            let edge = try waitForReady()
            let readyAt = time.now()
            // A later conversion may have replaced the one a stale edge announced.
            let edgeTime = edge.flatMap {
                readyAt.nanoseconds(since: $0) > Self.nanoseconds(settings.rate.period) ? nil : $0
            }
            let missed = conversions.account(edge: edge, fresh: edgeTime != nil, readyAt: readyAt)
            if missed > 0 { discard(.missedConversion, count: missed) }
            // If a line operation fails mid-read, PD_SCK may be left high: reset next time.
            needsReset = true
            let outcome = try shiftConversion()
            needsReset = false
            // A stretched pulse also makes a read-out late; it is the more telling reason.
            if !outcome.isStretched, isLate(readyEdge: edgeTime) {
                discard(.lateReadout)
                failuresInARow += 1
                try giveUpIfPersistent(failuresInARow, reason: .lateReadout)
                // The word may hold bits of two conversions: it is lost either way. Whether the
                // chip's state is lost too depends on what it counted; see ``lateReadoutKeepsGain``.
                if lateReadoutKeepsGain(outcome) {
                    _ = advanceGainState()
                } else {
                    try resetAfterFailedReadout()
                }
                continue
            }
            switch outcome {
            case .stretched:
                discard(.stretchedClock)
                failuresInARow += 1
                try giveUpIfPersistent(failuresInARow, reason: .stretchedClock)
                // Over 60 µs the chip powers down and restarts at channel A gain 128; under
                // it, it may have seen a pulse too few. Either way only a reset makes its
                // state known again. Powered down, it made no conversions to count as missed.
                try reset()
            case .doutNotHigh:
                discard(.integrity)
                failuresInARow += 1
                try giveUpIfPersistent(failuresInARow, reason: .integrity)
                // The chip counted a different number of pulses: its gain selection and its
                // shift position are unknown, and DOUT may still hold a data bit.
                try resetAfterFailedReadout()
            case .bitMismatch:
                discard(.integrity)
                failuresInARow += 1
                try giveUpIfPersistent(failuresInARow, reason: .integrity)
                // The pulse count was right (DOUT went high), so only this value is lost.
                _ = advanceGainState()
            case .value(let raw):
                failuresInARow = 0
                guard advanceGainState() else {
                    discard(.settling)
                    continue
                }
                var flags: SampleFlags = []
                if raw == Self.maximumCode {
                    flags.insert(.overRange)
                } else if raw == Self.minimumCode {
                    flags.insert(.underRange)
                }
                let sample = Sample(
                    raw: raw, signal: Double(raw), time: time.now(), edgeTime: edgeTime,
                    flags: flags, discarded: pendingDiscards)
                pendingDiscards = DiscardCounts()
                totals.published &+= 1
                if !flags.isEmpty { totals.saturated &+= 1 }
                return sample
            }
        }
    }

    /// Selects another input and gain; it takes effect with the next read's pulses, and the
    /// conversions until it has settled are discarded.
    public mutating func setGain(_ gain: HX711Gain) {
        settings.gain = gain
    }

    /// Powers the chip down by holding PD_SCK high (over 60 µs it draws under 1 µA).
    ///
    /// The next ``read()`` or ``powerUp()`` powers it up again with a reset.
    public mutating func powerDown() throws(SensorError) {
        try set(true)
        needsReset = true
    }

    /// Powers the chip up through a reset, so that its state is known: channel A gain 128,
    /// converting, with settling conversions to discard.
    public mutating func powerUp() throws(SensorError) {
        try reset()
    }

    /// Resets the chip: PD_SCK high past the power-down time, then low (datasheet "Power Down
    /// Control"; the kernel driver's `hx711_reset`). The chip restarts at channel A gain 128.
    @inlinable
    public mutating func reset() throws(SensorError) {
        try set(true)
        time.sleep(until: time.now().advanced(byNanoseconds: Self.nanoseconds(settings.powerDownHold)))
        try set(false)
        conversionGain = .channelA128
        settlingRemaining = settings.settlingConversions
        needsReset = false
        lastReadEnd = time.now()
        conversions.forget()
    }

    // MARK: - The read

    @inlinable static var maximumCode: Int32 { 0x7F_FFFF }
    @inlinable static var minimumCode: Int32 { -0x80_0000 }

    @usableFromInline
    enum ShiftOutcome {
        case value(Int32)
        case stretched
        case bitMismatch
        case doutNotHigh

        @inlinable var isStretched: Bool {
            if case .stretched = self { return true }
            return false
        }
    }

    /// Waits until DOUT is low: the conversion is ready.
    /// - Returns: the kernel's timestamp of the latest ready edge since the previous read-out,
    ///   when one was seen; more than a period old, it may announce a conversion since replaced.
    @inlinable
    mutating func waitForReady() throws(SensorError) -> MonotonicInstant? {
        let timeout = settings.effectiveReadyTimeout
        let deadline = time.now().advanced(byNanoseconds: Self.nanoseconds(timeout))
        var edgeTime: MonotonicInstant?
        // Events left from the previous read's data bits are stale; the ready edge may be
        // among them if the conversion completed since, so keep the latest falling edge after
        // that read ended.
        if try waitForEvents(timeout: .zero) {
            edgeTime = try takeReadyEdge() ?? edgeTime
        }
        while true {
            // The level, not the events, says whether the chip is ready: events only wake us
            // and carry the time.
            if try !get() { return edgeTime }
            let now = time.now()
            guard now < deadline else {
                totals.notReady &+= 1
                needsReset = true
                throw .notReady(
                    sensor: name, waited: timeout,
                    hint: "DOUT never went low: check the HX711's power (VCC, VDD and ground), "
                        + "the DOUT wiring and that the configured DOUT line is the one it is wired to")
            }
            if try waitForEvents(timeout: .nanoseconds(Int64(deadline.nanoseconds(since: now)))) {
                edgeTime = try takeReadyEdge() ?? edgeTime
            }
        }
    }

    /// Whether the read-out just finished outlasted its budget from the ready edge, or cannot be
    /// timed because the ready edge was not seen (the driver fell behind by more than a period).
    @inlinable
    func isLate(readyEdge: MonotonicInstant?) -> Bool {
        guard let readyEdge, let end = lastReadEnd else { return true }
        return end.nanoseconds(since: readyEdge) > Self.nanoseconds(settings.readoutLimit)
    }

    /// Reads the pending events and returns the latest falling edge after the previous read.
    @inlinable
    mutating func takeReadyEdge() throws(SensorError) -> MonotonicInstant? {
        events.removeAll(keepingCapacity: true)
        totals.hardwareOperations &+= 1
        do {
            try dataLine.readEdgeEvents(into: &events)
        } catch {
            throw .hardware(sensor: name, error)
        }
        var latest: MonotonicInstant?
        for event in events where event.kind == .falling {
            if let end = lastReadEnd, event.timestamp < end { continue }
            latest = event.timestamp
        }
        return latest
    }

    /// Clocks out 24 data bits and the gain pulses, timing each PD_SCK high period.
    @inlinable
    mutating func shiftConversion() throws(SensorError) -> ShiftOutcome {
        let limit = Self.nanoseconds(settings.clockHighLimit)
        let verify = settings.verifyBits
        var code: UInt32 = 0
        var mismatch = false
        for _ in 0..<24 {
            let rise = time.now()
            try set(true)
            // DOUT is valid 0.1 µs after the rising edge (datasheet T2); a syscall takes longer.
            let bit = try get()
            try set(false)
            if time.now().nanoseconds(since: rise) > limit {
                lastReadEnd = time.now()
                return .stretched
            }
            if verify, try get() != bit { mismatch = true }
            code = code << 1 | (bit ? 1 : 0)
        }
        for _ in 0..<settings.gain.extraPulses {
            let rise = time.now()
            try set(true)
            try set(false)
            if time.now().nanoseconds(since: rise) > limit {
                lastReadEnd = time.now()
                return .stretched
            }
        }
        let doutHigh = try get()
        lastReadEnd = time.now()
        if !doutHigh { return .doutNotHigh }
        if mismatch { return .bitMismatch }
        // Sign-extend the 24-bit two's complement code.
        return .value(Int32(bitPattern: code << 8) >> 8)
    }

    /// Moves the gain bookkeeping past one conversion that was read with correct pulses.
    /// - Returns: whether that conversion was taken at the configured gain and had settled.
    @inlinable
    mutating func advanceGainState() -> Bool {
        let trusted = conversionGain == settings.gain && settlingRemaining == 0
        if conversionGain != settings.gain {
            // This read's pulses switch the chip; the conversions after it settle.
            settlingRemaining = settings.settlingConversions
        } else if settlingRemaining > 0 {
            settlingRemaining -= 1
        }
        conversionGain = settings.gain
        return trusted
    }

    // MARK: - Counted line operations

    @inlinable @inline(__always)
    mutating func set(_ high: Bool) throws(SensorError) {
        totals.hardwareOperations &+= 1
        do {
            try clockLine.setValue(high)
        } catch {
            throw .hardware(sensor: name, error)
        }
    }

    @inlinable @inline(__always)
    mutating func get() throws(SensorError) -> Bool {
        totals.hardwareOperations &+= 1
        do {
            return try dataLine.value()
        } catch {
            throw .hardware(sensor: name, error)
        }
    }

    @inlinable @inline(__always)
    mutating func waitForEvents(timeout: Duration) throws(SensorError) -> Bool {
        totals.hardwareOperations &+= 1
        do {
            return try dataLine.waitForEdgeEvents(timeout: timeout)
        } catch {
            throw .hardware(sensor: name, error)
        }
    }
}

extension HX711 {
    /// Whole nanoseconds of a duration, zero for negative ones.
    @inlinable
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
