import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumProtocol

/// `plumscale check`: check-weighing, as a checkweigher's under/ok/over lamps.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check-weigh: every stable reading is under, ok or over a target with tolerances.",
        discussion: """
            `plumscale check --target 100 --minus 2 --plus 5` makes every stable WEIGHT report say under (below \
            98 g), ok (98 to 105 g, limits included) or over; judged on the displayed weight, so the verdict \
            always agrees with the display. It prints the verdict of the next stable reading: green ok, yellow \
            under, red over on a colour terminal. `plumscale read` and `watch` show it too. With --cue the \
            [cue] output pulses each time a reading turns ok. `--stop` ends check-weighing. Exit code 2 when \
            refused.
            """)

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("The sensor (default: the first).", valueName: "name"))
    var sensor: String?

    @Option(help: ArgumentHelp("The target weight in grams.", valueName: "grams"))
    var target: Double?

    @Option(help: ArgumentHelp("Grams below the target still ok.", valueName: "grams"))
    var minus: Double = 0

    @Option(help: ArgumentHelp("Grams above the target still ok.", valueName: "grams"))
    var plus: Double = 0

    @Flag(help: "Pulse the [cue] output each time a stable reading turns ok.")
    var cue = false

    @Flag(help: "Stop check-weighing.")
    var stop = false

    func validate() throws {
        guard (target != nil) != stop else { throw ValidationError("give --target GRAMS, or --stop.") }
        if let target, !(target.isFinite && target > 0) {
            throw ValidationError("--target must be a weight above 0 g, not \(target).")
        }
        guard minus.isFinite, plus.isFinite, minus >= 0, plus >= 0 else {
            throw ValidationError("--minus and --plus must be 0 or more grams.")
        }
    }

    func run() throws {
        let connection = try client.connect()
        let reply = try CommandError.exitOnFailure { () throws -> CheckReply in
            let name = try connection.sensors(sensor.map { [$0] } ?? []).first?.sensor ?? ""
            return try stop
                ? connection.check(sensor: name, target: nil)
                : connection.check(sensor: name, target: target, minus: minus, plus: plus, cue: cue)
        }
        guard reply.ok else {
            printError(reply.message)
            throw ExitStatus.refused
        }
        print(reply.message)
        guard !stop else { return }
        let shown = try CommandError.exitOnFailure { () throws -> WeightReport? in
            try connection.watch(WatchOptions(sensors: [reply.sensor]))
            let deadline = Monotonic.seconds() + 5
            while Monotonic.seconds() < deadline {
                if case .weight(let weight)? = try connection.nextReport(timeout: 1.0.seconds), weight.check != nil {
                    return weight
                }
            }
            return nil
        }
        if let shown, let verdict = shown.check {
            let colour = Terminal.isTerminal(1) && Terminal.colour() != .none
            printStyled(
                WireText.escaped("\(shown.sensor): \(shown.display)  ") + CheckText.verdict(verdict, colour: colour))
        }
    }
}
