import Dispatch
import Foundation

/// Waits until `condition` holds, checking it every `interval`, for at most `timeout`.
///
/// This is how a test waits for a signal (a line printed, a file or socket appearing, a
/// process gone) with a deadline, rather than sleeping a fixed time and hoping.
/// - Parameter what: the signal awaited, for the error: "the CLI to say it is waiting".
/// - Throws: ``FixtureError`` naming what never happened, and `describe()`'s account of what
///   was seen instead.
@available(*, noasync, message: "it blocks a thread of the concurrency pool: use waitFor, or call it inside offPool")
package func waitUntil(
    _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20),
    describe: () -> String = { "" }, _ condition: () throws -> Bool
) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if try condition() { return }
        guard clock.now < deadline else {
            let seen = describe()
            throw FixtureError("waited \(timeout) for \(what), in vain" + (seen.isEmpty ? "" : "; saw: \(seen)"))
        }
        let parts = interval.components
        Thread.sleep(forTimeInterval: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }
}

/// Waits until `condition` holds, checking it every `interval`, for at most `timeout`, from an
/// async test: between checks the task is suspended, so no thread of the concurrency pool waits.
/// (``waitUntil(_:timeout:interval:describe:_:)`` is its blocking twin, for use off the pool.)
/// - Throws: ``FixtureError`` naming what never happened and `describe()`'s account of what was
///   seen instead.
package func waitFor(
    _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(10),
    describe: () -> String = { "" }, _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if try await condition() { return }
        guard clock.now < deadline else {
            let seen = describe()
            throw FixtureError("waited \(timeout) for \(what), in vain" + (seen.isEmpty ? "" : "; saw: \(seen)"))
        }
        try await Task.sleep(for: interval)
    }
}

/// Whether `condition` comes to hold within `timeout`, checked as ``waitFor(_:timeout:interval:describe:_:)``
/// does (a throw counts as false): for `#expect(await eventually(within: .seconds(10)) { … }, "what")`,
/// where the test goes on after a miss and the expectation's message says what was missed.
package func eventually(
    within timeout: Duration, interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool
) async -> Bool {
    (try? await waitFor("the condition", timeout: timeout, interval: interval, condition)) != nil
}

/// Runs blocking work (a child process, a read or `recv` on a socket, a sleep) on a thread of its
/// own, off the Swift concurrency pool.
///
/// Tests run on that pool, which has as many threads as cores (two on a small CI machine): a
/// test blocking one of them starves the code under test. Dispatch's global queues are no way
/// out either: on Linux they too start with one thread per core and add one only after a
/// blocked worker has been noticed, so a dedicated thread it is, one per call.
package func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "plum-test-blocking"
        thread.start()
    }
}
