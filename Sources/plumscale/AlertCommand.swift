import ArgumentParser
import PlumClient
import PlumCore
import PlumProtocol

/// `plumscale alert NAME`: an `[[alert]]` rule's threshold and hysteresis changed while the
/// daemon runs, without editing the configuration and reloading it.
struct AlertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "Set an alert's threshold or hysteresis at runtime, or --clear them.",
        discussion: """
            The daemon keeps the values over a restart and a reload, until the configuration's own value \\
            for them changes or --clear puts the configuration's back. Exit code 2 when refused.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: ArgumentHelp("The alert's name from the configuration.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The threshold in net grams.", valueName: "grams"))
    var threshold: Double?

    @Option(help: ArgumentHelp("The hysteresis in grams (0 or more).", valueName: "grams"))
    var hysteresis: Double?

    @Flag(help: "Use the configuration's threshold and hysteresis again.")
    var clear = false

    func validate() throws {
        guard clear != (threshold != nil || hysteresis != nil) else {
            throw ValidationError("give --threshold, --hysteresis or both, or --clear alone.")
        }
        if let threshold, !threshold.isFinite { throw ValidationError("--threshold must be a number of grams.") }
        if let hysteresis, !(hysteresis >= 0 && hysteresis.isFinite) {
            throw ValidationError("--hysteresis must be 0 or more grams, not \(hysteresis).")
        }
    }

    func run() throws {
        let connection = try client.connect()
        try CommandError.exitOnFailure {
            let alert = try connection.setAlert(
                AlertChange(name: name, threshold: threshold, hysteresis: hysteresis, clear: clear))
            let state = alert.active ? "raised" : "clear"
            let threshold = FixedPoint.text(alert.threshold, decimals: 1)
            let hysteresis = FixedPoint.text(alert.hysteresis, decimals: 1)
            let values = "\(alert.condition) \(threshold) g, hysteresis \(hysteresis) g"
            print("\(alert.name) on \(alert.sensor): \(values); \(state)")
        }
    }
}
