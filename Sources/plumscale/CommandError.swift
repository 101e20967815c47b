import ArgumentParser
import PlumClient

#if canImport(Glibc)
    import Glibc
#endif

/// A client command's failure, in the words of the person at the scale, with its exit code.
struct CommandError: Error, CustomStringConvertible {
    enum Kind {
        /// The daemon cannot be reached: not running, no permission, or it went away.
        case daemon
        /// The daemon refused: not stable, outside the zero range, a degenerate fit, not permitted.
        case refused
        /// The sensor named does not exist; the message lists the ones that do.
        case unknownSensor
        /// The command line asks for something impossible.
        case usage
    }

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The client library's account of a failure, sorted into the CLI's exit codes.
    init(_ error: ClientError) {
        switch error.code {
        case .daemonError: self.init(.refused, error.message)
        case .unknownSensor: self.init(.unknownSensor, error.message)
        case .invalidPath: self.init(.usage, error.message)
        case .noDaemon, .permissionDenied, .notPlumscaled, .malformedReport, .connectionLost, .timedOut, .systemCall:
            self.init(.daemon, error.message)
        }
    }

    /// Any error a command meets, as a ``CommandError``.
    init(_ error: any Error) {
        switch error {
        case let error as CommandError: self = error
        case let error as ClientError: self.init(error)
        default: self.init(.daemon, "\(error)")
        }
    }

    var description: String { message }

    var exitCode: ExitCode {
        switch kind {
        case .daemon: ExitStatus.noDaemon
        case .refused: ExitStatus.refused
        case .unknownSensor: ExitStatus.unknownSensor
        case .usage: ExitCode.validationFailure
        }
    }

    /// Runs `body`; a failure is printed to standard error and becomes its exit code.
    static func exitOnFailure<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = CommandError(error)
            printError(failure.message)
            throw failure.exitCode
        }
    }
}

/// Seconds on the monotonic clock, for deadlines.
enum Monotonic {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Double {
    /// These seconds as a `Duration`, never negative.
    var seconds: Duration { .milliseconds(Int64((Swift.max(0, self) * 1000).rounded(.up))) }
}
