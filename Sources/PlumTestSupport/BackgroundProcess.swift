import Foundation

/// A program running beside the test, whose output the test can watch while it runs: the way
/// to act at the right moment (place a weight once the CLI says it waits for one) instead of
/// racing a sleep against it.
package final class BackgroundProcess: Sendable {
    package var pid: pid_t { child.pid }
    private let directory: TemporaryDirectory
    private let command: String
    /// Killed and reaped when released, so a failed test leaves no process behind.
    private let child: ChildReaper

    /// Starts `program` with `arguments`, `input` on its standard input.
    package init(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String = ""
    ) throws {
        directory = try TemporaryDirectory(prefix: "plumbg")
        command = ([program] + arguments).joined(separator: " ")
        child = ChildReaper(
            pid: try ChildProcess.spawn(
                [program] + arguments, environment: environment, input: try directory.write("stdin", input),
                output: directory.file("stdout"), error: directory.file("stderr")))
    }

    /// What it has written to standard output so far.
    package var stdout: String { directory.read("stdout") }
    /// What it has written to standard error so far.
    package var stderr: String { directory.read("stderr") }

    /// Waits until it has written `text` to standard error (or, with `standardOutput`, to
    /// standard output).
    /// - Throws: ``FixtureError`` with everything it wrote, when it exits first or time runs out.
    package func waitForOutput(_ text: String, standardOutput: Bool = false, timeout: Duration = .seconds(60)) throws {
        let stream = standardOutput ? "standard output" : "standard error"
        try waitUntil(
            "\"\(text)\" on the \(stream) of \(command)", timeout: timeout,
            describe: { "stdout: \(stdout)\nstderr: \(stderr)" }
        ) {
            if (standardOutput ? stdout : stderr).contains(text) { return true }
            if let status = exitStatus() {
                throw FixtureError(
                    "\(command) exited with status \(status) before writing \"\(text)\"; "
                        + "stdout: \(stdout)\nstderr: \(stderr)")
            }
            return false
        }
    }

    /// Waits for it to exit (killing it after `timeout`) and returns what it printed.
    package func finish(timeout: Duration = .seconds(120)) -> ChildProcess {
        let status = child.waitForExit("\(command) to exit", timeout: timeout)
        return ChildProcess(status: status, stdout: stdout, stderr: stderr)
    }

    /// The exit status once it has exited, else nil.
    package func exitStatus() -> Int32? { child.exitStatus() }

    /// True until it has exited.
    package var isRunning: Bool { exitStatus() == nil }

    /// Sends `signal` (unless it has exited already) and waits for it to exit; returns its exit
    /// status, a signal's number plus 128 when the signal ended it.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM) -> Int32 { child.stop(signal) }
}
