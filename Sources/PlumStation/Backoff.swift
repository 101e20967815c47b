/// How long a faulted sensor waits before it is opened again: doubling from `initial` up to
/// `maximum`, so a pulled cable is retried quickly at first and then without flooding the log.
package struct Backoff: Hashable, Sendable {
    package var initial: Duration
    package var maximum: Duration

    package init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before attempt `attempt` (0 for the first retry).
    package func delay(attempt: Int) -> Duration {
        var delay = initial
        for _ in 0..<min(attempt, 32) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
