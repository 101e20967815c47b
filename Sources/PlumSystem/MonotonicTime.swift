#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A point on the system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
///
/// This is the clock the kernel stamps GPIO edge events with (libgpiod 1.6 and 2.x default), so
/// driver times and kernel edge times can be compared directly.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Seconds since the clock's origin (boot), for display and traces.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The time from `earlier` to `self`, or zero when `earlier` is later.
    public func nanoseconds(since earlier: MonotonicInstant) -> UInt64 {
        nanoseconds >= earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0
    }

    public func advanced(byNanoseconds delta: UInt64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds &+ delta)
    }

    public var description: String { String(seconds) }
}

/// A source of monotonic time.
///
/// Drivers are generic over it: on hardware it is ``SystemMonotonicClock``; in tests and
/// simulations a virtual clock shared with a chip model makes timing deterministic.
public protocol MonotonicClock {
    func now() -> MonotonicInstant
    /// Blocks the calling thread until `deadline` (simulated clocks just advance).
    func sleep(until deadline: MonotonicInstant)
}

/// `CLOCK_MONOTONIC`, read with `clock_gettime` (a vDSO call: no system call on Linux).
public struct SystemMonotonicClock: MonotonicClock, Sendable {
    public init() {}

    @inline(__always)
    public func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec))
    }

    public func sleep(until deadline: MonotonicInstant) {
        var ts = timespec(
            tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
            tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        // Absolute sleep: restarting after EINTR does not drift.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

extension Duration {
    /// The duration in whole nanoseconds (negative durations count as zero), for arithmetic on
    /// ``MonotonicInstant``.
    public var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
