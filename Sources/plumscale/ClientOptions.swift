import ArgumentParser
import PlumClient

/// The options every command that talks to the daemon shares.
struct ClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket (default: $PLUMSCALE_SOCKET, then /run/plumscale/plumscale.sock, then the per-user "
                + "path).",
            valueName: "path"))
    var socket: String?

    /// Connects, or prints why not and exits with the documented code.
    func connect() throws -> DaemonClient {
        try CommandError.exitOnFailure { try DaemonClient(socketPath: socket) }
    }
}
