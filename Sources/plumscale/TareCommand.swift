import ArgumentParser
import PlumClient
import PlumCore
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale tare`: take the present load as tare, so the display shows net weight.
struct TareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tare",
        abstract: "Tare: the present load (a bowl, say) is subtracted from what follows.",
        discussion: """
            Waits up to --timeout seconds for a stable load. Exit code 2 when refused.
            --preset and --use set a known tare whatever is on the pan; --save, --list and --delete keep \
            the daemon's library of named tares (a bowl, a crate).
            """)

    @OptionGroup var options: ScaleCommandOptions
    @OptionGroup var library: TareLibraryOptions

    func validate() throws { try library.validate(sensors: options.sensor) }

    func run() throws {
        if library.isEmpty {
            try options.carryOut(.tare)
        } else {
            try library.carryOut(sensors: options.sensor, client: options.client)
        }
    }
}

/// `plumscale zero`: set zero on the empty pan, within ±2 % of full scale.
struct ZeroCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zero",
        abstract: "Zero: the present load becomes zero (only near zero; otherwise tare).",
        discussion: "Waits up to --timeout seconds for a stable load. Exit code 2 when refused.")

    @OptionGroup var options: ScaleCommandOptions

    func run() throws {
        try options.carryOut(.zero)
    }
}

/// What `tare` and `zero` share: which sensors, how long to wait for stable.
struct ScaleCommandOptions: ParsableArguments {
    enum Action: String {
        case tare = "TARE"
        case zero = "ZERO"
    }

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("The sensor (repeat for several; default: every sensor).", valueName: "name"))
    var sensor: [String] = []

    @Option(help: ArgumentHelp("How long to wait for a stable load, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard timeout >= 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout).")
        }
    }

    /// Sends the action to each sensor and prints each answer in plain words; a load that is
    /// still moving is asked again until it settles or the timeout passes, as a scale's
    /// tare key waits for stable.
    func carryOut(_ action: Action) throws {
        let connection = try client.connect()
        let refused = try CommandError.exitOnFailure { () throws -> Int in
            let sensors = try connection.sensors(sensor).map(\.sensor)
            var refused = 0
            for name in sensors {
                let reply = try ask(action, name, connection)
                if reply.ok {
                    print(success(action, reply))
                } else {
                    refused += 1
                    printError("\(name): \(reply.message ?? "\(action.rawValue.lowercased()) refused")")
                }
            }
            return refused
        }
        if refused > 0 { throw ExitStatus.refused }
    }

    private func ask(_ action: Action, _ name: String, _ connection: DaemonClient) throws(ClientError) -> CommandReply {
        let deadline = Monotonic.seconds() + timeout
        var told = false
        while true {
            let reply =
                switch action {
                case .tare: try connection.tare(sensor: name)
                case .zero: try connection.zero(sensor: name)
                }
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

    private func success(_ action: Action, _ reply: CommandReply) -> String {
        switch action {
        case .tare:
            let tare = reply.tare ?? 0
            return tare == 0
                ? "\(reply.sensor): tare cleared (the pan was empty)"
                : "\(reply.sensor): tare \(FixedPoint.text(tare, decimals: 1)) g; showing net weight"
        case .zero:
            return "\(reply.sensor): zero set"
        }
    }
}
