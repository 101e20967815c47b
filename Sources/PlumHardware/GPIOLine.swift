/// The small line protocols drivers are generic over.
///
/// Real lines (``GPIOOutputRequest`` and ``GPIOInputRequest`` over libgpiod) and chip models
/// (`PlumSimulation`) both conform.
/// Drivers take them as generic parameters, never as `any`, so a bit-banging loop specialises to
/// straight code with no boxing, retain/release or allocation. Errors are typed for the same
/// reason: `throws(HardwareError)` needs no existential box.

/// An output line the driver drives, such as the HX711's PD_SCK.
public protocol GPIOOutputLine {
    /// Drives the line: `true` is active (high, for an active-high line).
    func setValue(_ active: Bool) throws(HardwareError)
}

/// An input line the driver reads, such as the HX711's DOUT.
public protocol GPIOInputLine {
    /// Reads the line's current level: `true` is active (high, for an active-high line).
    func value() throws(HardwareError) -> Bool
}

/// Which way a line changed.
public enum EdgeKind: UInt8, Hashable, Sendable, CustomStringConvertible {
    case rising = 1
    case falling = 2

    public var description: String { self == .rising ? "rising" : "falling" }
}

/// Which edges an input line reports as events.
public enum EdgeDetection: UInt8, Hashable, Sendable {
    case none = 0
    case rising = 1
    case falling = 2
    case both = 3
}

/// One edge event as the kernel reported it.
///
/// Mirrors `struct gpiod_line_event` (libgpiod 1.6) and `struct gpiod_edge_event` (2.x).
public struct EdgeEvent: Hashable, Sendable {
    public var kind: EdgeKind
    /// The kernel's timestamp of the edge, on `CLOCK_MONOTONIC`.
    public var timestamp: MonotonicInstant
    /// The line offset on its chip.
    public var offset: UInt32

    public init(kind: EdgeKind, timestamp: MonotonicInstant, offset: UInt32) {
        self.kind = kind
        self.timestamp = timestamp
        self.offset = offset
    }
}

/// An input line that reports edges as kernel-timestamped events.
///
/// The waiting is done by the kernel (poll on the request's file descriptor): no busy-waiting
/// and no sleep-polling, so the CPU stays idle between conversions.
public protocol GPIOEdgeLine: GPIOInputLine {
    /// Waits until at least one edge event is pending or `timeout` passes.
    /// - Returns: `true` when events are pending, `false` on timeout.
    func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool

    /// Reads every pending edge event without blocking, appending them to `events`.
    ///
    /// Callers reuse one array (`removeAll(keepingCapacity: true)`), so steady-state reads do
    /// not allocate.
    /// - Returns: the number of events appended.
    @discardableResult
    func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int
}
