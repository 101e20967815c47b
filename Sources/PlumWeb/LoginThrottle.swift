import Synchronization

/// Counts failed logins per peer address and for the whole service, and refuses further
/// guesses for a while once five have failed, so the password cannot be guessed at the speed
/// bcrypt allows.
///
/// Per peer alone would let an attacker spread guesses over many addresses (IPv6 gives a LAN
/// host plenty); globally alone would let one typo-prone user lock out everyone for longer. Both
/// apply. A guess is counted when it is admitted, not when bcrypt answers, so fifty requests in
/// the same millisecond get five verifications, not fifty.
///
/// The price: anyone who can reach the login can keep it locked, one back-off at a time, and the
/// lock also holds the right password back. The window is short (a minute by default) and the
/// login is loopback-only unless the administrator opened it.
package final class LoginThrottle: Sendable {
    /// Failures that start a back-off, per peer and globally.
    package let limit: Int
    /// How long a back-off lasts, and how long a failure counts; `[web] login_backoff_seconds`.
    package let backoffSeconds: Double
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())

    /// - Parameter clock: monotonic seconds; replaced in tests.
    package init(
        limit: Int = 5, backoffSeconds: Double = 60,
        clock: @escaping @Sendable () -> Double = LoginThrottle.monotonicSeconds
    ) {
        self.limit = limit
        self.backoffSeconds = backoffSeconds
        self.clock = clock
    }

    /// What ``admit(_:)`` decided.
    package enum Admission: Equatable, Sendable {
        /// The guess may be checked; report its outcome with ``finish(_:succeeded:)``.
        case allowed
        /// Refused; the client may try again after this many whole seconds.
        case refused(retryAfter: Int)
    }

    /// Admits a guess from `peer` unless it or the service is backing off, or the guesses
    /// already being checked would reach the limit.
    package func admit(_ peer: String) -> Admission {
        let now = clock()
        return state.withLock { state in
            var mine = state.peers[peer] ?? Counter()
            let wait = max(
                mine.wait(now: now, limit: limit, window: backoffSeconds),
                state.global.wait(now: now, limit: limit, window: backoffSeconds))
            if wait > 0 { return .refused(retryAfter: Int(wait.rounded(.up))) }
            mine.pending += 1
            state.global.pending += 1
            state.peers[peer] = mine
            return .allowed
        }
    }

    /// Records the outcome of an admitted guess. Returns true when this failure started a back-off.
    @discardableResult
    package func finish(_ peer: String, succeeded: Bool) -> Bool {
        let now = clock()
        return state.withLock { state in
            var mine = state.peers[peer] ?? Counter()
            mine.pending = max(0, mine.pending - 1)
            state.global.pending = max(0, state.global.pending - 1)
            guard !succeeded else {
                state.peers[peer] = nil
                return false
            }
            let started = mine.fail(now: now, limit: limit, backoff: backoffSeconds)
            let globally = state.global.fail(now: now, limit: limit, backoff: backoffSeconds)
            state.peers[peer] = mine
            // Forget peers whose failures have all expired, so the table cannot grow without end.
            if state.peers.count > 1024 {
                state.peers = state.peers.filter {
                    $0.value.pending > 0 || $0.value.lockedUntil > now
                        || ($0.value.failures.last ?? -.infinity) > now - backoffSeconds
                }
            }
            return started || globally
        }
    }

    /// Takes back an admitted guess that could not be checked (no password file): it counts
    /// neither way.
    package func withdraw(_ peer: String) {
        state.withLock { state in
            if var mine = state.peers[peer] {
                mine.pending = max(0, mine.pending - 1)
                state.peers[peer] = mine
            }
            state.global.pending = max(0, state.global.pending - 1)
        }
    }

    /// Seconds on a clock that NTP cannot step.
    package static func monotonicSeconds() -> Double {
        let now = ContinuousClock.now - start
        return Double(now.components.seconds) + Double(now.components.attoseconds) * 1e-18
    }

    private static let start = ContinuousClock.now

    private struct State {
        var peers: [String: Counter] = [:]
        var global = Counter()
    }

    private struct Counter {
        /// When the recent failures happened, oldest first.
        var failures: [Double] = []
        var pending = 0
        var lockedUntil = -Double.infinity

        /// Seconds until a guess may be checked; 0 when it may be now.
        mutating func wait(now: Double, limit: Int, window: Double) -> Double {
            if now < lockedUntil { return lockedUntil - now }
            failures.removeAll { $0 <= now - window }
            // The guesses in flight could each fail; admitting more would overshoot the limit.
            return failures.count + pending >= limit ? window : 0
        }

        mutating func fail(now: Double, limit: Int, backoff: Double) -> Bool {
            failures.append(now)
            guard failures.count >= limit, now >= lockedUntil else { return false }
            failures.removeAll()
            lockedUntil = now + backoff
            return true
        }
    }
}
