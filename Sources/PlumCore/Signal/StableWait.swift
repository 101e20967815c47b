/// Waits for a stable reading until a deadline, driven by readings rather than a clock.
///
/// For print and "stable weight" requests (MT-SICS `S`): feed it each reading; it answers
/// once, with the first stable one or with a time-out when a reading past the deadline arrives
/// first. A sensor that stops sending never answers: the daemon's own timer covers that.
public struct StableWait: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        case stable(Reading)
        /// The deadline passed; carries the last reading seen.
        case timedOut(Reading)
    }

    /// Monotonic nanoseconds after which the wait gives up.
    public let deadline: UInt64
    public private(set) var outcome: Outcome?

    public init(deadline: UInt64) {
        self.deadline = deadline
    }

    /// A wait of `timeout` nanoseconds from `now`.
    public init(timeout: UInt64, from now: UInt64) {
        self.deadline = now.addingReportingOverflow(timeout).overflow ? .max : now + timeout
    }

    /// Consumes a reading; returns the outcome once decided (and the same outcome afterwards).
    public mutating func consume(_ reading: Reading) -> Outcome? {
        if let outcome { return outcome }
        if reading.isStable, !reading.isOverload, !reading.isUnderload {
            outcome = .stable(reading)
        } else if reading.time > deadline {
            outcome = .timedOut(reading)
        }
        return outcome
    }
}
