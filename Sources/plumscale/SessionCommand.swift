import ArgumentParser
import PlumClient
import PlumConsole
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
