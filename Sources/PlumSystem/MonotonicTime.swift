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
        var result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
        while result == EINTR { result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) }
        guard result != 0 else { return }
        // The kernel refuses a valid absolute time on no clock it has, but a library preloaded in
        // front of libc can: libfaketime 0.9.10 (Debian 12) answers EINVAL to every absolute sleep
        // on CLOCK_MONOTONIC, even with its monotonic clock left alone. Returning at once would
        // turn every wait of a sampler or a chip model into a busy loop (the soak's daemon took
        // 1.6 cores so); the rest of the wait is slept relative instead, which it passes through.
        sleepRelative(until: deadline)
    }

    /// Sleeps until `deadline` with relative sleeps, each for what remains.
    private func sleepRelative(until deadline: MonotonicInstant) {
        while true {
            let now = now()
            guard now < deadline else { return }
            let remaining = deadline.nanoseconds - now.nanoseconds
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            // EINTR: the loop computes what remains. Any other error: nothing left to fall back on.
            let result = clock_nanosleep(CLOCK_MONOTONIC, 0, &request, nil)
            guard result == 0 || result == EINTR else { return }
        }
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
