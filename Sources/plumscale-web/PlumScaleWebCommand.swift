import ArgumentParser
import FoundationEssentials
import Logging
import PlumClient
import PlumHistory
import PlumSettings
import PlumSystem
import PlumWeb

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale-web`: the scale in a browser, its history and its metrics; a client of plumscaled.
@main
struct PlumScaleWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale-web",
        abstract: "The scale in a browser: live pans, tare, calibration, history and Prometheus metrics.",
        discussion: """
            A client of plumscaled over its socket; it reconnects when the daemon restarts. It \
            listens on 127.0.0.1:8385 unless [web] listen or --listen says otherwise, records the \
            history in the state directory, and serves /metrics for Prometheus.

            Exit codes: 0 stopped; 1 configuration error; 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [Serve.self, HashPassword.self],
        defaultSubcommand: Serve.self
    )
}

/// Runs the web service (the default).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the page, the API and the metrics (the default).")

    @Option(help: ArgumentHelp("The configuration file; its [web] table is read.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("plumscaled's socket (default: as the client library finds it).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Listen on this address instead of [web] listen.", valueName: "host:port"))
    var listen: String?

    @Option(
        help: ArgumentHelp(
            "Where the history lives unless [web] history says (default: $STATE_DIRECTORY, else "
                + "/var/lib/plumscale-web).",
            valueName: "dir"))
    var stateDirectory: String?

    func validate() throws {
        if let listen, WebListenAddress(listen) == nil {
            throw ValidationError("--listen \(listen) is not HOST:PORT, such as 127.0.0.1:8385 or [::1]:8385.")
        }
    }

    func run() async throws {
        var logger = Logger(label: "plumscale-web")
        logger.logLevel = .info
        let settings = try loadSettings()
        let address = bindAddress(settings)
        let metrics = WebMetrics()
        let board = PanBoard(metrics: metrics)
        let directory =
            stateDirectory ?? ProcessInfo.processInfo.environment["STATE_DIRECTORY"]?
            .split(separator: ":").first.map(String.init) ?? "/var/lib/plumscale-web"
        let historyPath = settings.historyPath ?? directory + "/history.sqlite"
        let store: HistoryStore
        do {
            store = try HistoryStore(path: historyPath)
        } catch {
            complain(error.message)
            throw ExitCode(1)
        }
        var batching = HistoryBatch.Policy.standard
        batching.stableDelay = Double(settings.historyCommitSeconds)
        let history = HistoryKeeper(
            store: store, retentionDays: settings.retentionDays, batching: batching, logger: logger)
        // One link for the feed and the actions: it reconnects by itself when the daemon restarts.
        // It announces this service on every connect, so `plumscale status` lists it.
        let announcer = ServiceAnnouncer(name: "plumscale-web", version: PlumScaleWebCommand.configuration.version)
        let daemon = DaemonLink(socketPath: socket, announcing: announcer)
        // systemd's credential, when the package's empty placeholder was filled; else the file
        // [web] auth_file names, as before there were credentials.
        let passwordPath = ServiceCredential.path(ServiceCredential.webPassword) ?? settings.authFile
        let service = WebService(
            daemon: daemon, board: board, metrics: metrics, history: store,
            access: AccessPolicy(
                lanReadOnly: settings.lanReadOnly, passwords: PasswordFile(path: passwordPath),
                throttle: LoginThrottle(backoffSeconds: Double(settings.loginBackoffSeconds)),
                hosts: HostCheck(names: settings.allowedHosts), trustedProxy: settings.trustedProxy,
                cookieSecure: settings.cookieSecure),
            maxWatchers: settings.maxWatchers, keeper: history, setup: SetupSocketClient(path: settings.setupSocket))
        let feed = DaemonFeed(link: daemon, board: board, history: history, logger: logger)
        let application = service.makeApplication(
            listen: address.host, port: address.port, services: [feed], logger: logger)
        let started =
            "plumscale-web on http://\(address) (history \(historyPath), placements written within "
            + "\(settings.historyCommitSeconds) s; password \(passwordPath))"
        logger.info("\(started)")
        try await application.runService()
    }

    private func loadSettings() throws -> WebSettings {
        let path = config ?? "/etc/plumscale/plumscale.toml"
        do {
            // The default file may be absent on a machine that runs only the web service.
            if config == nil, !Syscalls.exists(path) { return WebSettings() }
            return try WebSettings.load(path: path)
        } catch {
            complain("\(error)")
            throw ExitCode(1)
        }
    }

    /// `--listen` wins over `[web] listen`; `lan_read_only` with a loopback address listens on
    /// every address of the same port, so the LAN can read.
    private func bindAddress(_ settings: WebSettings) -> WebListenAddress {
        let chosen = listen.flatMap(WebListenAddress.init) ?? settings.listen
        guard settings.lanReadOnly, chosen.isLoopback else { return chosen }
        return WebListenAddress(host: chosen.host.contains(":") ? "::" : "0.0.0.0", port: chosen.port)
    }
}

/// Prints the bcrypt hash of a password read from standard input, for `[web] auth_file`.
///
/// On a terminal the password is read without echo, twice, so that neither the screen nor a
/// typo keeps it. Passwords under ``minimumLength`` characters and costs under ``minimumCost``
/// are refused: the login's back-off slows an online guess, but a copy of the hash can be
/// attacked offline at the speed the cost allows.
struct HashPassword: ParsableCommand {
    static let minimumLength = 10
    static let minimumCost: UInt8 = 10

    static let configuration = CommandConfiguration(
        commandName: "hash-password",
        abstract: "Read a password on standard input and print its bcrypt hash for [web] auth_file.",
        discussion: """
            (umask 077 && plumscale-web hash-password >web-password)
            sudo install -m 600 web-password \(PasswordFile.credentialSource) && rm web-password
            sudo systemctl restart plumscale-web
            """)

    @Option(help: "The bcrypt cost (10 ... 31); each step doubles the time a guess takes.")
    var cost: UInt8 = 12

    func validate() throws {
        guard (Self.minimumCost...31).contains(cost) else {
            throw ValidationError(
                "--cost must be \(Self.minimumCost) to 31; below 10 a stolen hash is guessed too fast.")
        }
    }

    func run() throws {
        let password = try readPassword()
        guard password.count >= Self.minimumLength else {
            throw ValidationError(
                "the password has \(password.count) characters; use at least \(Self.minimumLength) "
                    + "(a few words are easier to remember and harder to guess).")
        }
        print(PasswordFile.makeHash(password, cost: cost))
        // On standard error, so that the file standard output went to holds the hash alone.
        complainRaw(
            "Install it as root only (no tee: it leaves a copy others can read):\n"
                + "  sudo install -m 600 FILE \(PasswordFile.credentialSource)\n"
                + "  sudo systemctl restart plumscale-web\n")
    }

    /// The password: from a terminal without echo and confirmed, else the first line of input.
    private func readPassword() throws -> String {
        guard Syscalls.isTerminal(0) else {
            guard let line = readLine(strippingNewline: true) else {
                throw ValidationError("type the password on standard input.")
            }
            return line
        }
        let first = try Self.readWithoutEcho(prompt: "Password: ")
        let second = try Self.readWithoutEcho(prompt: "Again: ")
        guard first == second else { throw ValidationError("the two passwords differ; nothing was printed.") }
        return first
    }

    /// One line from the terminal on standard input with echo off, the prompt on standard error.
    /// The prompt comes once echo is off: a person types when it shows, and what they typed
    /// before echo went off would be on the screen.
    private static func readWithoutEcho(prompt: String) throws -> String {
        do {
            return try Syscalls.withoutEcho {
                complainRaw(prompt)
                defer { complainRaw("\n") }
                return readLine(strippingNewline: true) ?? ""
            }
        } catch let error as Errno {
            throw ValidationError("cannot turn the terminal's echo off (\(error)); pipe the password in instead.")
        }
    }
}

/// One line on standard error.
func complain(_ message: String) {
    complainRaw("plumscale-web: \(message)\n")
}

/// Text on standard error as it is (a prompt).
func complainRaw(_ text: String) {
    Syscalls.writeStandardError(text)
}
