import Foundation
import PlumClient

/// A real `plumscaled` as a child process on a private socket, for tests to talk to.
///
/// The initializer returns once the daemon greets on its socket (or throws with the daemon's
/// own log when it exits or does not greet in time); deinit kills and reaps it, so a failed
/// test leaves no daemon behind.
package final class DaemonFixture: Sendable {
    /// The private directory: the socket, the state directory, the log, any configuration.
    package let directory: TemporaryDirectory
    package let socketPath: String
    package var pid: pid_t { child.pid }
    /// Where the daemon's standard output and error go.
    package let logPath: String
    /// Killed and reaped when released, so a failed test leaves no daemon behind.
    private let child: ChildReaper

    /// Starts `plumscaled` with `arguments` plus `--socket` and `--state-directory` in a
    /// private directory.
    /// - Parameters:
    ///   - configuration: TOML written to `plumscale.toml` and passed with `--config`; nil runs
    ///     `--simulate` (two simulated pans with plums coming and going).
    ///   - arguments: more arguments for the daemon.
    ///   - environment: more environment variables for the daemon.
    ///   - command: a program that starts the daemon (`systemd-socket-activate …`); the
    ///     daemon's own arguments follow it.
    ///   - waitForSocket: false returns as soon as the process runs (a test of a failed start).
    package init(
        configuration: String? = nil, arguments: [String] = [], environment: [String: String] = [:],
        command: [String] = [], directory: TemporaryDirectory? = nil, waitForSocket: Bool = true,
        timeout: Duration = .seconds(60)
    ) throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "plumd")
        self.directory = directory
        socketPath = directory.file("plumscale.sock")
        logPath = directory.file("plumscaled.log")
        var daemonArguments = ["--socket", socketPath, "--state-directory", directory.file("state")]
        if let configuration {
            daemonArguments += ["--config", try directory.write("plumscale.toml", configuration)]
        } else {
            daemonArguments.append("--simulate")
        }
        child = ChildReaper(
            pid: try ChildProcess.spawn(
                command + [BuiltProducts.plumscaled] + daemonArguments + arguments, environment: environment,
                output: logPath))
        if waitForSocket { try waitForGreeting(timeout: timeout) }
    }

    /// Waits until the daemon greets on its socket and has logged that it is serving.
    /// - Throws: ``FixtureError`` with the daemon's log when it exits first or the time passes.
    package func waitForGreeting(timeout: Duration = .seconds(60)) throws {
        var lastError = "no socket yet"
        let what = "plumscaled to greet on \(socketPath)"
        try waitUntil(what, timeout: timeout, describe: { "\(lastError); log: \(log)" }) {
            if let status = exitStatus() {
                throw FixtureError("plumscaled exited with status \(status) before greeting; log: \(log)")
            }
            do {
                _ = try DaemonClient(socketPath: socketPath, timeout: .seconds(5))
            } catch {
                lastError = "\(error)"
                return false
            }
            // Greeting comes first; the serving line (and READY=1) once SIGTERM is trapped, so a
            // test's stop from here on is the graceful one a unit's stop is.
            lastError = "greeted, but no serving line yet"
            return log.contains(" serving ")
        }
    }

    /// Waits until every sensor has delivered a reading, so POLL and commands have one to use.
    /// - Throws: ``FixtureError`` naming the sensors still silent.
    package func waitForReadings(timeout: Duration = .seconds(30)) throws {
        let client = try self.client()
        var silent = Set(try client.devices().map(\.sensor))
        try client.watch()
        while !silent.isEmpty {
            do {
                silent.remove(try client.nextWeight(within: timeout) { silent.contains($0.sensor) }.sensor)
            } catch {
                throw FixtureError("no reading from \(silent.sorted()) within \(timeout): \(error); log: \(log)")
            }
        }
    }

    /// A new client connected to this daemon.
    package func client() throws(ClientError) -> DaemonClient {
        try DaemonClient(socketPath: socketPath)
    }

    /// How many descriptors the daemon has open (from /proc): a connection closing shows here.
    package func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// What the daemon has logged so far.
    package var log: String { readFile(logPath) }

    /// Sends `signal` without waiting.
    package func send(_ signal: Int32) { child.send(signal) }

    /// The exit status once the daemon has exited (a signal's number plus 128), else nil.
    package func exitStatus() -> Int32? { child.exitStatus() }

    /// Sends SIGTERM and waits (up to `timeout`, then SIGKILL) for the exit status.
    package func terminate(timeout: Duration = .seconds(30)) -> Int32 {
        send(SIGTERM)
        return waitForExit(timeout: timeout)
    }

    /// Waits for the daemon to exit by itself; after `timeout` it is killed.
    package func waitForExit(timeout: Duration = .seconds(30)) -> Int32 {
        child.waitForExit("plumscaled to exit", timeout: timeout)
    }
}
