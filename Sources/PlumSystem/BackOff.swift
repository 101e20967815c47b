/// How long to wait before trying again: capped exponential back-off, with jitter when many
/// may retry at once. One type for every retry: a client's `DaemonLink` trying plumscaled again
/// (with jitter), and the station's sampler opening a faulted sensor again (none: 500 ms
/// doubling to 30 s, so a pulled cable is retried quickly at first and then without flooding
/// the log).
///
/// The first retry comes after ``first``, each further one after twice the pause before, up to
/// ``limit``; a connection that was made starts again at ``first``. Jitter takes up to
/// ``jitter`` (a fraction) off each pause, so the clients of a daemon that restarts (the web,
/// the bridge, a dashboard) do not all knock at the same instant, and no pause exceeds ``limit``.
/// The default, 250 ms doubling to 5 s less up to 20 %, finds a restarted daemon within a
/// second and costs a daemon that stays down one connect every few seconds; ``sensorReopen``
/// is the sampler's.
public struct BackOff: Hashable, Sendable {
    /// The pause after the first failure.
    public var first: Duration
    /// The longest pause.
    public var limit: Duration
    /// The largest fraction (0 to 1) taken off a pause at random.
    public var jitter: Double

    public init(first: Duration = .milliseconds(250), limit: Duration = .seconds(5), jitter: Double = 0.2) {
        self.first = max(first, .zero)
        self.limit = max(limit, self.first)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// A faulted sensor opened again: 500 ms doubling to 30 s, no jitter (one sampler per
    /// sensor, nothing to spread).
    public static let sensorReopen = BackOff(first: .milliseconds(500), limit: .seconds(30), jitter: 0)

    /// The pause after `failures` failed attempts in a row (0 for the first failure), before
    /// jitter: `first · 2^failures`, at most ``limit``.
    public func ceiling(afterFailures failures: Int) -> Duration {
        var pause = first
        for _ in 0..<max(failures, 0) {
            // Doubling stops at the limit, so a daemon down for days cannot overflow the Duration.
            if pause >= limit { break }
            pause = pause * 2
        }
        return min(pause, limit)
    }

    /// The pause after `failures` failed attempts in a row; `unit` (0 ≤ unit < 1) picks the
    /// jitter: 0 waits the whole ``ceiling(afterFailures:)``, values near 1 take ``jitter`` of it off.
    public func delay(afterFailures failures: Int, unit: Double = Double.random(in: 0..<1)) -> Duration {
        ceiling(afterFailures: failures) * (1 - jitter * min(max(unit, 0), 1))
    }
}
