import ArgumentParser
import Dispatch
import Logging
import PlumConfig
import PlumScaleDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// The process's entry point: parses the command line, then runs the daemon on Swift's
/// concurrency pool while the main thread waits for it to finish.
///
/// Not an async `main`: on Linux that hands the main thread to `dispatch_main()`, which ends it
/// with `pthread_exit`, and the forced unwind of that exit searches the program's unwind tables,
/// leaving about 0.6 MiB of them resident for the daemon's whole life (docs/PERFORMANCE.md,
/// "Resident memory at rest"). Nothing in the daemon runs on the main actor.
@main
enum PlumScaledMain {
    static func main() {
        let command = PlumScaledCommand.parseOrExit()
        let outcome = Outcome()
        Task.detached {
            do {
                try await command.run()
            } catch {
                outcome.error = error
            }
            outcome.finished.signal()
        }
        outcome.finished.wait()
        PlumScaledCommand.exit(withError: outcome.error)
    }

    /// How the daemon's run ended, handed from its task to the waiting main thread (the
    /// semaphore orders the write before the read).
    private final class Outcome: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        var error: (any Error)?
    }
}

/// `plumscaled`: the status daemon. Argument parsing and wiring only; the work is in PlumScaleDaemon.
struct PlumScaledCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscaled",
        abstract: "PlumScale's status daemon: reads the sensors and serves readings on a local socket.",
        discussion: """
            Under systemd it adopts the socket passed by plumscaled.socket and reports READY, \
            STATUS and the watchdog. SIGHUP (systemctl reload plumscaled) re-reads the configuration's \
            [scale] and the stored calibrations; SIGTERM stops cleanly. \
            Exit codes: 0 stopped on request; 1 configuration error; 2 could not listen or start.
            """)

    @Option(help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String = PlumConfiguration.defaultPath

    @Flag(help: "Two simulated pans with plums coming and going: no hardware, no root.")
    var simulate = false

    @Option(
        help: ArgumentHelp("Listen on this Unix socket instead of the configured or default path.", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("state-directory"), help: ArgumentHelp("Where calibrations are kept.", valueName: "dir"))
    var stateDirectory: String?

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "plumscaled")
        var configuration = PlumConfiguration.simulatedPans
        if !simulate {
            do {
                configuration = try PlumConfiguration.load(path: config)
            } catch {
                logger.critical("\(error)")
                throw ExitCode(1)
            }
        }
        let state =
            stateDirectory
            ?? configuration.daemon.stateDirectory
            ?? ProcessInfoLite.environment("STATE_DIRECTORY")?.split(separator: ":").first.map(String.init)
            ?? (simulate ? "/tmp/plumscale-\(getuid())/state" : "/var/lib/plumscale")
        // systemd's StateDirectory= makes it under a unit; by hand, the daemon makes it.
        if let problem = Self.makeDirectory(state) {
            logger.error(
                "state directory \(state): \(problem); calibrations cannot be saved until it exists and is writable")
        }
        do {
            try await Daemon.run(
                Daemon.Options(
                    configuration: configuration, socketPath: socket, stateDirectory: state,
                    configurationPath: simulate ? nil : config),
                logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ExitCode(2)
        }
    }

    /// Makes `path` and its parents (mode 0750); nil on success, else the reason.
    static func makeDirectory(_ path: String) -> String? {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/\(component)"
            if mkdir(partial, 0o750) != 0 && errno != EEXIST {
                return String(cString: strerror(errno))
            }
        }
        return access(path, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }
}

enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
