import ArgumentParser
import PlumClient
import PlumCore
import PlumProtocol

/// `plumscale session`: weighing sessions, a named run of fruit such as one crate.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Start, stop, show, list or export weighing sessions: a named run of fruit, such as one crate.",
        discussion: """
            While a session runs, each fruit placed on its sensor is recorded with its weight and class; the \
            daemon keeps it over a restart. `plumscale watch` shows its count as it grows.
            Exit code 2 when the daemon refuses (a session already running, none to stop, an unknown name).
            """,
        subcommands: [Start.self, Stop.self, Show.self, List.self, Export.self])

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a session; the fruit placed from now on is recorded.")
        @OptionGroup var client: ClientOptions
        @Argument(help: ArgumentHelp("The session's name, such as crate-12.", valueName: "name"))
        var name: String
        @Option(help: ArgumentHelp("The sensor whose fruit it records (default: the first).", valueName: "name"))
        var sensor: String?

        func run() throws {
            let reply = try SessionCommand.ask(SessionRequest(action: .start, name: name, sensor: sensor), client)
            print(reply.message)
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the running session and print its figures.")
        @OptionGroup var client: ClientOptions

        func run() throws {
            let reply = try SessionCommand.ask(SessionRequest(action: .stop), client)
            for session in reply.sessions { print(SessionText.figures(session)) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a session's figures and items (default: the running one, else the latest).")
        @OptionGroup var client: ClientOptions
        @Argument(help: ArgumentHelp("The session's name.", valueName: "name"))
        var name: String?

        func run() throws {
            let reply = try SessionCommand.ask(SessionRequest(action: .show, name: name), client)
            for session in reply.sessions {
                print(SessionText.figures(session))
                for item in session.items ?? [] { print(SessionText.item(item, division: session.division)) }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the kept sessions, oldest first.")
        @OptionGroup var client: ClientOptions

        func run() throws {
            let reply = try SessionCommand.ask(SessionRequest(action: .list), client)
            if reply.sessions.isEmpty { print(reply.message) }
            for session in reply.sessions { print(SessionText.line(session)) }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a session's items as CSV: item,grams,class,flags,recorded_at.")
        @OptionGroup var client: ClientOptions
        @Argument(
            help: ArgumentHelp("The session's name (default: the running one, else the latest).", valueName: "name"))
        var name: String?
        @Flag(help: "CSV (the only format for now).")
        var csv = false

        func run() throws {
            let reply = try SessionCommand.ask(SessionRequest(action: .show, name: name), client)
            guard let session = reply.sessions.first else { return }
            print(SessionText.csv(session), terminator: "")
        }
    }

    /// Sends `request`; a refusal is printed and exits with code 2.
    static func ask(_ request: SessionRequest, _ client: ClientOptions) throws -> SessionReport {
        let connection = try client.connect()
        let reply = try CommandError.exitOnFailure { try connection.session(request) }
        guard reply.ok else {
            printError(reply.message)
            throw ExitStatus.refused
        }
        return reply
    }
}

/// A session in words, for the terminal and for CSV.
enum SessionText {
    /// One line per session for `list`.
    static func line(_ session: SessionSummary) -> String {
        let state = session.stopped.map { "stopped \($0)" } ?? "running"
        return "\(session.name)  \(session.sensor)  started \(session.started)  \(state)  \(items(session.count))  "
            + grams(session.total, session.division)
    }

    /// The running session under `watch`'s gauge: its count, total and class histogram.
    static func running(_ session: SessionSummary) -> String {
        // Drawn straight onto the watch screen, not through print: the name is escaped here.
        "session \(WireText.escaped(session.name)): \(items(session.count)), \(grams(session.total, session.division))"
            + (session.classes.isEmpty ? "" : "  " + histogram(session))
    }

    /// The figures, a few lines.
    static func figures(_ session: SessionSummary) -> String {
        var lines = [line(session)]
        if let mean = session.mean, let minimum = session.minimum, let maximum = session.maximum {
            var figures =
                "  mean \(grams(mean, session.division))  min \(grams(minimum, session.division))  "
                + "max \(grams(maximum, session.division))"
            if let heaviest = session.heaviestItem { figures += " (item \(heaviest))" }
            if let deviation = session.standardDeviation {
                figures += "  std dev \(grams(deviation, session.division))"
            }
            lines.append(figures)
        }
        if !session.classes.isEmpty {
            lines.append("  " + histogram(session))
        }
        return lines.joined(separator: "\n")
    }

    /// Per class a count and a bar of up to 10 blocks scaled to the largest class:
    /// `small 4 ██  medium 20 ██████████  large 6 ███`.
    static func histogram(_ session: SessionSummary) -> String {
        let largest = max(1, session.classes.map(\.count).max() ?? 1)
        var parts = session.classes.map { band in
            let blocks = band.count == 0 ? 0 : max(1, (band.count * 10 + largest / 2) / largest)
            return "\(band.name) \(band.count)" + (blocks == 0 ? "" : " " + String(repeating: "█", count: blocks))
        }
        if session.unclassified > 0 { parts.append("none \(session.unclassified)") }
        return parts.joined(separator: "  ")
    }

    static func item(_ item: SessionSummary.Item, division: Double) -> String {
        var line = "  #\(item.item)  \(grams(item.grams, division))"
        if let weightClass = item.weightClass { line += "  \(weightClass)" }
        if !item.flags.isEmpty { line += "  (\(item.flags.joined(separator: ", ")))" }
        return line + "  \(item.at)"
    }

    /// The items as CSV, a header first; flags joined with `;` (PlumProtocol's ``SessionCSV``, which
    /// plumscale-web's export uses too).
    static func csv(_ session: SessionSummary) -> String { SessionCSV.text(session) }

    /// "1 item", "30 items".
    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    /// `grams` printed with the decimals of `division`, and " g".
    static func grams(_ grams: Double, _ division: Double) -> String { number(grams, division) + " g" }

    static func number(_ grams: Double, _ division: Double) -> String {
        var decimals = 0
        var step = division
        while decimals < 6, (step - step.rounded()).magnitude > 1e-9 {
            step *= 10
            decimals += 1
        }
        return FixedPoint.text(grams, decimals: decimals)
    }
}
