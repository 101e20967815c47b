public import PlumHardware

/// A monotonic clock that moves only when told to, shared by a chip model and the driver under
/// test so that timing (conversion-ready instants, clock-high periods, timeouts) is exact and
/// repeatable.
///
/// Chip models advance it by the nominal cost of each line operation, and jump it forward when
/// the driver waits for an edge; tests advance it to inject faults such as a stretched clock.
/// It is used from one thread (the sampler's), so it is a plain class.
public final class VirtualClock: MonotonicClock {
    private var current: MonotonicInstant

    /// Starts at `start` (default: one second after "boot", so instants are never zero).
    public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000)) {
        current = start
    }

    public func now() -> MonotonicInstant { current }

    /// Jumps to `deadline` if it is later than now; never goes backwards.
    public func sleep(until deadline: MonotonicInstant) {
        if deadline > current { current = deadline }
    }

    /// Moves the clock forward.
    public func advance(byNanoseconds delta: UInt64) {
        current = current.advanced(byNanoseconds: delta)
    }

    public func advance(by duration: Duration) {
        advance(byNanoseconds: duration.nanoseconds)
    }
}
