public import PlumHardware
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A push button on a modelled GPIO input line with both edges requested, as the kernel
/// presents one: each change of level is an edge event with a `CLOCK_MONOTONIC` time stamp,
/// queued until read. Active-high: pressed reads `true` and a press is a rising edge (the
/// kernel applies `active_low` before the events, so a driver sees the same either way).
///
/// Edges can be dated in the past or the future, so a test can make a 1.5 s press without
/// waiting 1.5 s, and a bouncing contact is a burst of edges a millisecond apart.
public final class SimulatedButton: GPIOEdgeLine, Sendable {
    private struct State {
        var pressed = false
        var pending: [EdgeEvent] = []
    }

    private let state = Mutex(State())
    /// The line offset the events carry.
    public let offset: UInt32

    public init(offset: UInt32 = 27) {
        self.offset = offset
    }

    /// The contact closes at `time` (now when nil).
    public func press(at time: MonotonicInstant? = nil) { change(to: true, at: time) }

    /// The contact opens at `time` (now when nil).
    public func release(at time: MonotonicInstant? = nil) { change(to: false, at: time) }

    /// The contact closes at `time` and opens at `released`, both edges queued at once: queued
    /// by two calls, a reader that came between them on a busy machine could see a press with
    /// no release long after it began, and rightly judge it a long press.
    public func press(at time: MonotonicInstant, releasedAt released: MonotonicInstant) {
        change([(true, time), (false, released)])
    }

    /// The contact closes at `time`, bouncing open and shut `bounces` times, a millisecond apart,
    /// and opens for good at `released` when given (queued with the rest, as ``press(at:releasedAt:)``).
    ///
    /// The edges are queued at once, as the kernel holds a burst for a reader that comes to it
    /// late: queued one by one, a reader could take the first bounce alone and, its time stamps
    /// being long past, judge it a whole press before the rest of the burst was queued.
    public func pressBouncing(at time: MonotonicInstant, bounces: Int, releasedAt released: MonotonicInstant? = nil) {
        var edges: [(Bool, MonotonicInstant)] = []
        var at = time.nanoseconds
        for _ in 0..<bounces {
            edges.append((true, MonotonicInstant(nanoseconds: at)))
            edges.append((false, MonotonicInstant(nanoseconds: at + 500_000)))
            at += 1_000_000
        }
        edges.append((true, MonotonicInstant(nanoseconds: at)))
        if let released { edges.append((false, released)) }
        change(edges)
    }

    private func change(to pressed: Bool, at time: MonotonicInstant?) {
        change([(pressed, time ?? SystemMonotonicClock().now())])
    }

    private func change(_ edges: [(pressed: Bool, at: MonotonicInstant)]) {
        state.withLock { state in
            for (pressed, stamp) in edges where state.pressed != pressed {
                state.pressed = pressed
                state.pending.append(EdgeEvent(kind: pressed ? .rising : .falling, timestamp: stamp, offset: offset))
            }
        }
    }

    public func value() throws(HardwareError) -> Bool {
        state.withLock { $0.pressed }
    }

    public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
        let deadline = SystemMonotonicClock().now().nanoseconds + timeout.nanoseconds
        while true {
            if state.withLock({ !$0.pending.isEmpty }) { return true }
            if SystemMonotonicClock().now().nanoseconds >= deadline { return false }
            usleep(500)
        }
    }

    @discardableResult
    public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
        let taken = state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        events.append(contentsOf: taken)
        return taken.count
    }
}
