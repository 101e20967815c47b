import PlumClient
import PlumProtocol

extension DaemonClient {
    /// The next WEIGHT report that `matches` accepts, within `timeout`.
    /// - Throws: ``FixtureError`` saying which reports came instead, when none matched in time.
    package func nextWeight(
        within timeout: Duration = .seconds(10), where matches: (WeightReport) -> Bool = { _ in true }
    ) throws -> WeightReport {
        try nextReport(within: timeout, "a WEIGHT report") { report in
            if case .weight(let weight) = report, matches(weight) { weight } else { nil }
        }
    }

    /// The first report `matches` turns into a value, within `timeout`.
    /// - Throws: ``FixtureError`` naming `what` and the last reports seen, when none matched in time.
    package func nextReport<T>(
        within timeout: Duration = .seconds(10), _ what: String, _ matches: (Report) -> T?
    ) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var seen: [String] = []
        while clock.now < deadline {
            guard let received = try receive(timeout: deadline - clock.now) else { break }
            if let value = matches(received.report) { return value }
            seen.append(received.line)
            if seen.count > 3 { seen.removeFirst() }
        }
        throw FixtureError("no \(what) from \(socketPath) within \(timeout); the last reports: \(seen)")
    }
}
