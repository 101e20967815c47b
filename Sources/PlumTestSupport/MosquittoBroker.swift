import Foundation

/// A real mosquitto broker on a free loopback port, started from a configuration in a private
/// directory and killed when the value goes away. ``restart()`` brings it back on the same port.
///
/// Starting waits, with a deadline, for mosquitto's "running" line: its listener is bound by
/// then, and a broker that could not bind has said why and exited instead.
package final class MosquittoBroker: @unchecked Sendable {
    // @unchecked Sendable: `process` and `port` change only in init, restart() and kill(),
    // called by the one test (or benchmark) that owns the broker, never concurrently.
    /// The loopback port it listens on, `127.0.0.1:port`.
    package private(set) var port = 0
    /// Its configuration and anything a test puts beside it.
    package let directory: TemporaryDirectory
    private var process: BackgroundProcess?
    private let extraConfiguration: String

    /// Starts mosquitto; a port another program took between the check and mosquitto's bind
    /// ("Address already in use") is replaced by another, up to five times. It blocks while
    /// mosquitto starts: from an async test use ``start(configuration:)``.
    /// - Parameter configuration: more lines for `mosquitto.conf`.
    /// - Throws: ``FixtureError`` with mosquitto's own words when it does not listen in 10 s.
    package init(configuration: String = "") throws {
        directory = try TemporaryDirectory(prefix: "plummq")
        extraConfiguration = configuration
        var failure: (any Error)?
        for _ in 0..<5 {
            port = try LoopbackPort.free()
            do {
                try launch()
                return
            } catch {
                failure = error
            }
        }
        throw failure!
    }

    /// Starts mosquitto as ``init(configuration:)`` does, waiting off the concurrency pool.
    package static func start(configuration: String = "") async throws -> MosquittoBroker {
        try await offPool { try MosquittoBroker(configuration: configuration) }
    }

    /// What mosquitto has logged so far.
    package var log: String { process?.stderr ?? "" }

    /// Kills the broker (SIGKILL: nothing it holds survives, as after a crash) and waits until
    /// the port no longer accepts.
    package func kill() {
        process?.stop(SIGKILL)
        process = nil
        try? waitUntil("127.0.0.1:\(port) to refuse connections", timeout: .seconds(5)) {
            !LoopbackPort.accepts(port)
        }
    }

    /// ``kill()``, waiting off the concurrency pool.
    package func kill() async {
        _ = try? await offPool { self.kill() as Void }
    }

    /// Kills the broker and starts it again on the same port.
    package func restart() throws {
        kill()
        try launch()
    }

    /// ``restart()``, waiting off the concurrency pool.
    package func restart() async throws {
        try await offPool { try self.restart() as Void }
    }

    deinit { process?.stop(SIGKILL) }

    private func launch() throws {
        let configuration = try directory.write(
            "mosquitto.conf",
            """
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence false
            log_dest stderr
            log_type error
            log_type warning
            log_type information
            \(extraConfiguration)

            """)
        let process = try BackgroundProcess("mosquitto", ["-c", configuration])
        self.process = process
        do {
            try waitUntil(
                "mosquitto to listen on 127.0.0.1:\(port)", timeout: .seconds(10), describe: { process.stderr }
            ) {
                guard process.isRunning else {
                    throw FixtureError("mosquitto exited before listening on 127.0.0.1:\(port): \(process.stderr)")
                }
                return process.stderr.contains(" running") && LoopbackPort.accepts(port)
            }
        } catch {
            process.stop(SIGKILL)
            self.process = nil
            throw error
        }
    }
}
