import Dispatch
import Foundation

/// Waits until `condition` holds, checking it every `interval`, for at most `timeout`.
///
/// This is how a test waits for a signal (a line printed, a file or socket appearing, a
/// process gone) with a deadline, rather than sleeping a fixed time and hoping.
/// - Parameter what: the signal awaited, for the error: "the CLI to say it is waiting".
/// - Throws: ``FixtureError`` naming what never happened, and `describe()`'s account of what
///   was seen instead.
public func waitUntil(
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

/// Runs blocking work (a child process, a wait on a socket) on a Dispatch thread, off the Swift
/// concurrency pool.
///
/// Tests run on that pool, which has as many threads as cores (two on a small CI machine): a
/// test blocking them for seconds starves the async tests running beside it.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
