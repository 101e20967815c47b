import Dispatch
import Logging
import PlumDaemonConfig
import PlumScaleDaemon
import PlumSystem

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
        let command: PlumScaledCommand
        do {
            switch try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
            case .help:
                print(DaemonCommandLine.help, terminator: "")
                exit(0)
            case .run(let options):
                command = PlumScaledCommand(options: options)
            }
        } catch {
            let message = "\(error)\n"
            Syscalls.writeStandardError(message)
            exit(64)  // EX_USAGE
        }
        let outcome = Outcome()
        Task.detached {
            do {
                try await command.run()
                outcome.status = 0
            } catch let error as PlumScaledCommand.Failure {
                outcome.status = error.status
            } catch {
                outcome.status = 1
            }
            outcome.finished.signal()
        }
        outcome.finished.wait()
        exit(outcome.status)
    }

    /// How the daemon's run ended, handed from its task to the waiting main thread (the
    /// semaphore orders the write before the read).
    private final class Outcome: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        var status: Int32 = 0
    }
}

/// `plumscaled`: the status daemon. Wiring only; the work is in PlumScaleDaemon.
struct PlumScaledCommand: Sendable {
    /// A run that ended with this exit status (the error was logged).
    struct Failure: Error {
        var status: Int32
    }

    var options: DaemonCommandLine

    func run() async throws {
        let level: Logger.Level = options.verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "plumscaled")
        let (config, simulate) = (options.config, options.simulate)
        var configuration = PlumConfiguration.simulatedPans
        if !simulate {
            do {
                configuration = try PlumConfiguration.load(path: config)
            } catch {
                logger.critical("\(error)")
                throw Failure(status: 1)
            }
        }
        let state =
            options.stateDirectory
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
                    configuration: configuration, socketPath: options.socket, stateDirectory: state,
                    configurationPath: simulate ? nil : config),
                logger: logger)
        } catch {
            logger.critical("\(error)")
            throw Failure(status: 2)
        }
    }

    /// Makes `path` and its parents (mode 0750); nil on success, else the reason.
    static func makeDirectory(_ path: String) -> String? {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/\(component)"
            if mkdir(partial, 0o750) != 0 && errno != EEXIST {
                return Errno.current.description
            }
        }
        return Syscalls.writability(of: path)?.description
    }
}

enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
