internal import CPlumShim

/// One GPIO line requested as an input, with optional kernel-timestamped edge events, such as
/// the HX711's DOUT (whose falling edge says a conversion is ready).
///
/// Mirrors a libgpiod input or edge-event request (`gpiod_line_request_*_edge_events` in 1.6,
/// `gpiod_line_settings_set_edge_detection` in 2.x). The event buffer is allocated once when
/// the line is requested; waiting and reading allocate nothing. The line is released when the
/// request is deinitialised.
///
/// `@unchecked Sendable`: handed to the sampler thread and used there alone (see ``GPIOChip``);
/// the preallocated event buffer is why it must not be read from two threads at once.
public final class GPIOInputRequest: GPIOEdgeLine, @unchecked Sendable {
    /// The chip stays open while the line is requested (libgpiod 1.6 requires it).
    public let chip: GPIOChip
    public let offset: UInt32
    /// "gpiochip0 line 6 (GPIO6)", for messages.
    public let subject: String
    /// Which edges were requested; `.none` means the line has no events to wait for.
    public let edges: EdgeDetection
    /// The most events one ``readEdgeEvents(into:)`` returns.
    public let eventCapacity: Int
    let handle: OpaquePointer
    private let events: UnsafeMutablePointer<plum_gpio_edge_event>

    init(
        chip: GPIOChip, handle: OpaquePointer, offset: UInt32, subject: String, edges: EdgeDetection, eventCapacity: Int
    ) {
        self.chip = chip
        self.handle = handle
        self.offset = offset
        self.subject = subject
        self.edges = edges
        self.eventCapacity = eventCapacity
        self.events = .allocate(capacity: eventCapacity)
        self.events.initialize(repeating: plum_gpio_edge_event(), count: eventCapacity)
    }

    deinit {
        Syscalls.gpioRequestRelease(handle)
        events.deallocate()
    }

    /// Reads the line's level: `true` is active (high, unless requested active-low).
    @inline(__always)
    public func value() throws(HardwareError) -> Bool {
        switch Syscalls.gpioGetValue(handle) {
        case .success(let value): return value
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "reading", subject: subject, errno: errno)
        }
    }

    /// Waits in the kernel (poll on the request's descriptor) until an edge is queued or
    /// `timeout` passes. A signal does not cut the wait short.
    /// - Returns: `true` when events are pending, `false` on timeout.
    /// - Throws: ``HardwareError/Code/invalidRequest`` when the line was requested without edges.
    public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
        try requireEdges()
        switch Syscalls.gpioWaitEdgeEvents(handle, timeoutNanoseconds: GPIOInputRequest.nanoseconds(timeout)) {
        case .success(let pending): return pending
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "waiting for edges on", subject: subject, errno: errno)
        }
    }

    /// Reads every queued edge event, up to ``eventCapacity``, without blocking.
    ///
    /// Reuse one array with `removeAll(keepingCapacity: true)` and reserve ``eventCapacity``
    /// once: then nothing allocates.
    /// - Returns: the number of events appended (0 when none was queued).
    @discardableResult
    public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
        try requireEdges()
        switch Syscalls.gpioReadEdgeEvents(handle, into: self.events, capacity: eventCapacity) {
        case .success(let count):
            for index in 0..<count {
                let raw = self.events[index]
                events.append(
                    EdgeEvent(
                        kind: raw.kind == PLUM_GPIO_EDGE_KIND_RISING ? .rising : .falling,
                        timestamp: MonotonicInstant(nanoseconds: raw.timestamp_ns),
                        offset: raw.offset))
            }
            return count
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "reading edges on", subject: subject, errno: errno)
        }
    }

    /// A timeout in whole nanoseconds for the C call: negative becomes 0 (poll once), and a
    /// duration too long for Int64 saturates instead of trapping.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let whole = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if whole.overflow { return seconds < 0 ? 0 : Int64.max }
        let total = whole.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000)
        if total.overflow { return seconds < 0 ? 0 : Int64.max }
        return max(0, total.partialValue)
    }

    @inline(__always)
    private func requireEdges() throws(HardwareError) {
        guard edges != .none else {
            throw HardwareError(
                .invalidRequest, operation: "waiting for edges on", subject: subject,
                detail: "the line was requested without edge detection",
                hint: "request it with edges: .falling, .rising or .both")
        }
    }
}
