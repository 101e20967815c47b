internal import PlumDaemonConfig

/// `plumscaled`'s command line: five options, read by hand as a Linux daemon reads its
/// getopt_long(3) options, `--name value` or `--name=value`.
///
/// Not swift-argument-parser, which the CLI uses: its reflection over the command's properties
/// ran much of the Swift runtime's demangler and metadata code once at start, and that code
/// then stayed resident for the daemon's whole life, about 0.5 MiB (docs/PERFORMANCE.md,
/// "Resident memory at rest").
package struct DaemonCommandLine: Equatable, Sendable {
    /// The configuration file.
    package var config: String = PlumConfiguration.defaultPath
    /// Two simulated pans instead of the configuration's sensors.
    package var simulate = false
    /// The Unix socket to listen on instead of the configured one.
    package var socket: String?
    /// Where calibrations are kept, instead of the configured one.
    package var stateDirectory: String?
    /// Log at debug level too: each item placed or removed.
    package var verbose = false

    package init() {}

    /// What the command line asks for.
    package enum Request: Equatable, Sendable {
        case run(DaemonCommandLine)
        case help
    }

    /// A command line that cannot be run: what was wrong, and the usage line to print after it
    /// (the caller exits with 64, EX_USAGE).
    package struct UsageError: Error, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { "plumscaled: \(message)\n\(DaemonCommandLine.usage)" }
    }

    package static let usage =
        "Usage: plumscaled [--config <file>] [--simulate] [--socket <path>] [--state-directory <dir>] [--verbose]\n"
        + "  See 'plumscaled --help'."

    /// Reads `arguments` (without the program's name).
    package static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var line = DaemonCommandLine()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                throw UsageError(message: "unexpected argument '\(argument)': plumscaled takes options only")
            }
            let name: Substring
            var attached: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                attached = String(argument[argument.index(after: equals)...])
            } else {
                name = argument[...]
            }
            /// The option's value: after '=', or the next argument.
            func value(_ kind: String) throws(UsageError) -> String {
                if let attached {
                    guard !attached.isEmpty else { throw UsageError(message: "option \(name) needs a value after '='") }
                    return attached
                }
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                    throw UsageError(message: "option \(name) needs a value: \(name) <\(kind)>")
                }
                defer { index += 1 }
                return arguments[index]
            }
            switch name {
            case "-h", "--help":
                return .help
            case "--config":
                line.config = try value("file")
            case "--socket":
                line.socket = try value("path")
            case "--state-directory":
                line.stateDirectory = try value("dir")
            case "--simulate":
                guard attached == nil else { throw UsageError(message: "option --simulate takes no value") }
                line.simulate = true
            case "-v", "--verbose":
                guard attached == nil else { throw UsageError(message: "option \(name) takes no value") }
                line.verbose = true
            default:
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
        return .run(line)
    }

    /// `plumscaled --help`, in the layout help2man reads for the manual page.
    package static let help = """
        OVERVIEW: PlumScale's status daemon: reads the sensors and serves readings on a local socket.

        Under systemd it adopts the socket passed by plumscaled.socket and reports READY, STATUS and the \
        watchdog. SIGHUP (systemctl reload plumscaled) re-reads the configuration's [scale] and the stored \
        calibrations; SIGTERM stops cleanly. Exit codes: 0 stopped on request; 1 configuration error; 2 could \
        not listen or start; 64 a command line it cannot run.

        USAGE: plumscaled [--config <file>] [--simulate] [--socket <path>] [--state-directory <dir>] [--verbose]

        OPTIONS:
          --config <file>          The configuration file. (default: \(PlumConfiguration.defaultPath))
          --simulate               Two simulated pans with plums coming and going: no hardware, no root.
          --socket <path>          Listen on this Unix socket instead of the configured or default path.
          --state-directory <dir>  Where calibrations are kept.
          -v, --verbose            Log at debug level too: each item placed or removed, a line each.
          -h, --help               Show help information.

        """
}
