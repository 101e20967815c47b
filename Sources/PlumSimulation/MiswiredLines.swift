public import PlumHardware

#if canImport(Glibc)
    import Glibc
#endif

// Lines as a miswired HX711 shows them, for the setup probe's DOUT watch: a pin held at one
// level, a pin nothing drives, a clock that reaches no chip. Each is a line protocol the probe
// runs over unchanged, on a virtual clock shared with the test.

/// An input held at one level: DOUT on a pin pulled up and connected to nothing, an unpowered
/// chip, or a pin something else holds low. It never changes, so it makes no edge events.
public struct StuckLine<Time: MonotonicClock>: GPIOEdgeLine {
    public let level: Bool
    public let clock: Time

    public init(level: Bool, clock: Time) {
        self.level = level
        self.clock = clock
    }

    public func value() throws(HardwareError) -> Bool { level }

    /// No edge ever comes: waits out the whole timeout.
    public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
        clock.sleep(until: clock.now().advanced(byNanoseconds: timeout.nanoseconds))
        return false
    }

    @discardableResult
    public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int { 0 }
}

/// An output wired to nothing (or to a pin that ignores it): a PD_SCK on the wrong pin.
public struct UnconnectedOutput: GPIOOutputLine {
    public init() {}

    public func setValue(_ active: Bool) throws(HardwareError) {}
}

/// A floating input: an unconnected CMOS pin with no pull, which picks up noise and toggles at
/// random instants, at no rate. Seeded, so a test sees the same toggles every run.
///
/// Toggles come at exponentially distributed intervals (a Poisson process) with
/// `meanInterval`; each is an edge event stamped when it happened.
public final class FloatingLine<Time: MonotonicClock>: GPIOEdgeLine {
    public let clock: Time
    public let meanInterval: Duration
    public let offset: UInt32
    private var random: SeededRandom
    private var level = true
    private var nextToggle: MonotonicInstant
    private var pending: [EdgeEvent] = []

    public init(clock: Time, meanInterval: Duration = .milliseconds(7), seed: UInt64 = 0xF10A7, offset: UInt32 = 5) {
        self.clock = clock
        self.meanInterval = meanInterval
        self.offset = offset
        random = SeededRandom(seed: seed)
        nextToggle = clock.now()
        nextToggle = nextToggle.advanced(byNanoseconds: drawInterval())
    }

    private func drawInterval() -> UInt64 {
        let uniform = max(random.unit(), 1e-9)
        return UInt64(-Double(meanInterval.nanoseconds) * Glibc.log(uniform)) + 1
    }

    /// Toggles the level for every instant passed up to now.
    private func catchUp() {
        let now = clock.now()
        while nextToggle <= now {
            level.toggle()
            if pending.count >= 16 { pending.removeFirst() }
            pending.append(EdgeEvent(kind: level ? .rising : .falling, timestamp: nextToggle, offset: offset))
            nextToggle = nextToggle.advanced(byNanoseconds: drawInterval())
        }
    }

    public func value() throws(HardwareError) -> Bool {
        catchUp()
        return level
    }

    public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
        catchUp()
        guard pending.isEmpty else { return true }
        let deadline = clock.now().advanced(byNanoseconds: timeout.nanoseconds)
        clock.sleep(until: min(deadline, nextToggle))
        catchUp()
        return !pending.isEmpty
    }

    @discardableResult
    public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
        catchUp()
        let count = pending.count
        events.append(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
        return count
    }
}
