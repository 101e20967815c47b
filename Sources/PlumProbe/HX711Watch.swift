package import PlumHardware

/// What an HX711's DOUT did while ``HX711Watch`` looked at it.
package struct HX711Observation: Hashable, Sendable {
    /// How long the watch ran.
    package var window: Duration
    /// The kernel's timestamps of the falls that announced a conversion: DOUT fell while the
    /// watch was not clocking, and was still low when it looked.
    package var readyFalls: [MonotonicInstant] = []
    /// The 24-bit words read out after those falls, sign-extended.
    package var words: [Int32] = []
    /// Read-outs after which DOUT was still low: the 25th PD_SCK pulse pulls it high on a chip
    /// that sees the clock, so a low DOUT here says the chip did not see PD_SCK.
    package var doutLowAfterReadout = 0
    /// Edges no conversion explains: rises while the watch was idle, falls that were over by the
    /// time it looked. An HX711 makes none; a floating input makes many.
    package var strayEdges = 0
    package var levelAtStart = true
    package var levelAtEnd = true

    package init(window: Duration) { self.window = window }

    /// The time between consecutive ready falls, in nanoseconds.
    package var intervals: [UInt64] {
        zip(readyFalls.dropFirst(), readyFalls).map { $0.nanoseconds(since: $1) }
    }
}

/// Watches an HX711's DOUT for a while, over the same line protocols the driver uses.
///
/// The watch holds PD_SCK low (which keeps the chip powered, datasheet "Power Down Control"),
/// waits for DOUT's falling edges as kernel-timestamped events, and clocks each conversion out
/// with 25 pulses, as the driver does at channel A gain 128, the chip's power-on selection: so
/// it changes no setting of the chip, and the next conversion falls where the watch can see it.
/// It never drives DOUT and touches no other line. The intervals between falls give the data
/// rate; what DOUT does otherwise (never moves, moves at random, ignores the clock) is what
/// ``HX711Verdict`` diagnoses.
///
/// DOUT must be requested with both edges (``EdgeDetection/both``): the rises are how a floating
/// input gives itself away. Generic over its lines and clock, as the driver is, so the bit-accurate
/// `HX711Model` and the miswired-line models in PlumSimulation prove it on a virtual clock.
package struct HX711Watch<Clock: GPIOOutputLine, Data: GPIOEdgeLine, Time: MonotonicClock> {
    package let clockLine: Clock
    package let dataLine: Data
    package let time: Time
    /// How long to watch: 1.5 s sees 15 conversions at 10 SPS, enough for a steady interval.
    package var window: Duration

    package init(clockLine: Clock, dataLine: Data, time: Time, window: Duration = .milliseconds(1500)) {
        self.clockLine = clockLine
        self.dataLine = dataLine
        self.time = time
        self.window = window
    }

    /// Watches for ``window``.
    /// - Throws: ``HardwareError`` when a line operation fails.
    package func run() throws(HardwareError) -> HX711Observation {
        var observation = HX711Observation(window: window)
        var events: [EdgeEvent] = []
        events.reserveCapacity(64)
        try clockLine.setValue(false)
        let start = time.now()
        let deadline = start.advanced(byNanoseconds: window.nanoseconds)
        observation.levelAtStart = try dataLine.value()
        _ = try dataLine.readEdgeEvents(into: &events)
        // A conversion already waiting makes no fall: read it out, so the next one does.
        if !observation.levelAtStart { try readOut(into: &observation) }
        var quietSince = time.now()
        while true {
            let now = time.now()
            guard now < deadline else { break }
            let remaining = Duration.nanoseconds(Int64(deadline.nanoseconds(since: now)))
            guard try dataLine.waitForEdgeEvents(timeout: remaining) else { break }
            events.removeAll(keepingCapacity: true)
            _ = try dataLine.readEdgeEvents(into: &events)
            var fall: EdgeEvent?
            // Edges before the end of the last read-out are its own data bits and its 25th pulse.
            for event in events where event.timestamp > quietSince {
                if event.kind == .falling, fall == nil { fall = event } else { observation.strayEdges += 1 }
            }
            guard let fall else { continue }
            guard try !dataLine.value() else {
                observation.strayEdges += 1
                continue
            }
            observation.readyFalls.append(fall.timestamp)
            try readOut(into: &observation)
            quietSince = time.now()
        }
        observation.levelAtEnd = try dataLine.value()
        return observation
    }

    /// Clocks one conversion out: 24 data bits MSB first, then the 25th pulse, after which DOUT
    /// must be high (datasheet "Serial Interface", Fig. 2).
    private func readOut(into observation: inout HX711Observation) throws(HardwareError) {
        var word: UInt32 = 0
        for _ in 0..<24 {
            try clockLine.setValue(true)
            let bit = try dataLine.value()
            try clockLine.setValue(false)
            word = word << 1 | (bit ? 1 : 0)
        }
        try clockLine.setValue(true)
        try clockLine.setValue(false)
        if try !dataLine.value() { observation.doutLowAfterReadout += 1 }
        observation.words.append(Int32(bitPattern: word << 8) >> 8)
    }
}
