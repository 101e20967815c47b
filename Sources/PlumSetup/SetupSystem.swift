import Foundation
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What setup asks of the system around it: which services are installed, whether a broker
/// listens, systemd's units, and child processes. Each has an override (an option or an
/// environment variable) so that the tests run setup as a whole without touching the machine.
package struct SetupSystem {
    /// Run systemctl (false: print the commands for the user instead).
    var useSystemd: Bool
    /// The systemctl to run: `$PLUMSCALE_SYSTEMCTL`, else `systemctl` on PATH.
    var systemctl: String
    var environment: [String: String]

    package init(noSystemd: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        systemctl = environment["PLUMSCALE_SYSTEMCTL"] ?? "systemctl"
        // /run/systemd/system exists only when systemd is PID 1 (sd_booted(3)); a systemctl named
        // in the environment is run whatever the init, as the tests do.
        useSystemd =
            !noSystemd && (environment["PLUMSCALE_SYSTEMCTL"] != nil || Syscalls.exists("/run/systemd/system"))
    }

    /// A program's path when it is installed: `$VARIABLE` when set (empty: not installed), else
    /// the first executable `name` on PATH, else /usr/bin/`name`.
    func installed(_ name: String, variable: String) -> String? {
        if let forced = environment[variable] { return forced.isEmpty ? nil : forced }
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return path.map { $0 + "/" + name }.first { Syscalls.isExecutable($0) }
    }

    /// Whether `unit` is known to systemd (its file is installed).
    func unitExists(_ unit: String) -> Bool {
        guard useSystemd else { return false }
        return (try? Self.run(systemctl, ["cat", unit]))?.status == 0
    }

    /// Runs `systemctl ARGUMENTS`; an error that names the command and what it printed.
    func systemctl(_ arguments: [String]) throws -> String {
        let result = try Self.run(systemctl, arguments)
        guard result.status == 0 else {
            throw SetupFailure(
                .service,
                "\(systemctl) \(arguments.joined(separator: " ")) failed (exit \(result.status)): "
                    + "\(result.error.trimmingCharacters(in: .whitespacesAndNewlines)); "
                    + "see journalctl -u \(arguments.last ?? "") and run setup again")
        }
        return result.output
    }

    /// What a child process printed, and how it ended.
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `program` (a path, or a name on PATH) with `input` on its standard input.
    static func run(_ program: String, _ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch {
            throw SetupFailure(.service, "cannot run \(program): \(error); check that it is installed")
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        // Standard output to its end, then standard error: the programs setup runs (systemctl,
        // plumscale-web hash-password) print a few lines on standard error, far below a pipe's
        // 64 KiB, so the child never blocks on the second while setup reads the first.
        let outputBytes = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorBytes = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputBytes, as: UTF8.self),
            error: String(decoding: errorBytes, as: UTF8.self))
    }

    /// Whether something accepts a TCP connection at `host`:`port` within `timeout` seconds.
    static func accepts(host: String, port: Int, timeout: Double = 2) -> Bool {
        Syscalls.acceptsConnections(host: host, port: port, timeout: timeout)
    }

    /// One line from the terminal with echo off (termios), the prompt on standard error; nil at
    /// the end of input. Standard input that is not a terminal is read as it is.
    static func readSecret(prompt: String) -> String? {
        guard Syscalls.isTerminal(0) else { return readLine(strippingNewline: true) }
        do {
            return try Syscalls.withoutEcho {
                // The prompt once echo is off: what was typed before would be on the screen.
                FileHandle.standardError.write(Data(prompt.utf8))
                defer { FileHandle.standardError.write(Data("\n".utf8)) }
                return readLine(strippingNewline: true)
            }
        } catch {
            return readLine(strippingNewline: true)
        }
    }
}

/// A setup step that failed: what was wrong and what to do, with its exit code.
package struct SetupFailure: Error, CustomStringConvertible {
    package enum Kind {
        /// The answers or the configuration are wrong (exit 1).
        case configuration
        /// Not replaced, not calibrated: something the user must decide (exit 2).
        case refused
        /// A service or a file could not be set up (exit 1).
        case service
        /// The daemon did not answer (exit 6).
        case daemon
        /// The command line (exit 64).
        case usage
    }

    package var kind: Kind
    package var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
