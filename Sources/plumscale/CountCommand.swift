import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale count`: piece counting, as a counting scale does it.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count pieces: the stable load on the pan is N pieces; from then on WEIGHT reports carry the count.",
        discussion: """
            Place N pieces (10 or more gives a better reference) and run `plumscale count --pieces N`: it waits \
            up to --timeout seconds for a stable load, takes one piece's weight from it, and prints the count \
            the pan shows then. `plumscale count --stop` stops counting. A count more than 0.3 of a piece from a \
            whole number is shown as ambiguous, never guessed. With --optimize the piece weight is taken again \
            from the larger count as pieces are added, as counting scales do. Exit code 2 when refused.
            """)

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("The sensor (default: the first).", valueName: "name"))
    var sensor: String?

    @Option(help: ArgumentHelp("How many pieces are on the pan now.", valueName: "N"))
    var pieces: Int?

    @Flag(help: "Stop counting.")
    var stop = false

    @Flag(
        help: ArgumentHelp(
            "Update the piece weight as more pieces are added: when the pan holds at least twice the reference's "
                + "pieces and the count is unambiguous, that count becomes the reference."))
    var optimize = false

    @Option(help: ArgumentHelp("How long to wait for a stable load, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard (pieces != nil) != stop else { throw ValidationError("give --pieces N, or --stop.") }
        if optimize, stop { throw ValidationError("--optimize goes with --pieces N, not with --stop.") }
        if let pieces, !(1...1_000_000).contains(pieces) {
            throw ValidationError("--pieces must be 1 to 1000000, not \(pieces).")
        }
        guard timeout >= 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout).")
        }
    }

    func run() throws {
        let connection = try client.connect()
        let reply = try CommandError.exitOnFailure { () throws -> CountReply in
            let name = try connection.sensors(sensor.map { [$0] } ?? []).first?.sensor ?? ""
            return try ask(name, connection)
        }
        guard reply.ok else {
            printError(reply.message)
            throw ExitStatus.refused
        }
        print(reply.message)
        guard pieces != nil else { return }
        let shown = try CommandError.exitOnFailure { () throws -> WeightReport? in
            try connection.watch(WatchOptions(sensors: [reply.sensor]))
            let deadline = Monotonic.seconds() + 5
            while Monotonic.seconds() < deadline {
                if case .weight(let weight)? = try connection.nextReport(timeout: 1.0.seconds), weight.stable,
                    weight.count != nil || weight.countRatio != nil
                {
                    return weight
                }
            }
            return nil
        }
        if let shown { print(CountText.text(shown)) }
    }

    /// Asks until the load is stable or the timeout passes, as `tare` does.
    private func ask(_ name: String, _ connection: DaemonClient) throws(ClientError) -> CountReply {
        let deadline = Monotonic.seconds() + timeout
        var told = false
        while true {
            let reply = try connection.count(sensor: name, pieces: pieces, optimize: optimize ? true : nil)
            guard !reply.ok, reply.reason == Refusal.Code.notStable.rawValue, Monotonic.seconds() < deadline else {
                return reply
            }
            if !told {
                printError("\(name): waiting for a stable load…")
                told = true
            }
            // The next readings come within a few tens of milliseconds at 10 to 80 SPS.
            usleep(100_000)
        }
    }
}
