import ArgumentParser
import PlumHardware

/// `plumscale`: the command a person types.
@main
struct PlumScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale",
        abstract: "PlumScale: a fruit scale on a single-board computer.",
        discussion: """
            New here? 'plumscale demo' shows it working with no hardware. The other commands \
            talk to plumscaled over its socket; 'raw' reads a sensor directly for bring-up.

            Exit codes: 0 success; 1 configuration error; 2 refused by the daemon (not stable \
            in time, outside the zero range, degenerate fit, not permitted); 3 hardware error \
            (no chip, wrong line, no permission); 4 sensor not ready; 5 interrupted before any \
            sample; 6 daemon not running, not permitted or gone; 7 unknown sensor; 64 usage error.
            """,
        version: "0.1.0 (libgpiod API \(GPIOChip.libgpiodAPIVersion))",
        subcommands: [
            ReadCommand.self, WatchCommand.self, TareCommand.self, ZeroCommand.self, CalibrateCommand.self,
            StatusCommand.self, DemoCommand.self, RawCommand.self, HistoryCommand.self, AlertCommand.self,
            SessionCommand.self, CountCommand.self, CheckCommand.self, SetupCommand.self
        ]
    )
}

/// The documented exit codes, shared by every subcommand.
enum ExitStatus {
    static let configuration = ExitCode(1)
    static let hardware = ExitCode(3)
    static let notReady = ExitCode(4)
    static let interrupted = ExitCode(5)
    static let refused = ExitCode(2)
    static let noDaemon = ExitCode(6)
    static let unknownSensor = ExitCode(7)
}
