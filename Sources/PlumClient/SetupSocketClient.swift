internal import PlumSystem

/// The client of `plumscale setup --serve` behind `plumscale-setup.socket`: one request, one
/// reply, one connection (systemd starts a setup process per connection, `Accept=yes`).
///
/// The lines are relayed as they are: the setup program owns their format (docs/web.md, "The
/// first run"), so this client checks only that a request is one line and a reply arrives.
package struct SetupSocketClient: Sendable {
    /// The unit's `ListenStream=`.
    package static let defaultPath = "/run/plumscale-setup.sock"

    package let path: String
    /// How long to wait for the reply: an apply restarts plumscaled and waits for it.
    package let timeout: Duration

    package init(path: String = SetupSocketClient.defaultPath, timeout: Duration = .seconds(100)) {
        self.path = path
        self.timeout = timeout
    }

    /// Sends `request` (one line of JSON) and returns the reply line, blocking.
    /// - Throws: ``ClientError``: `.noDaemon` when nothing listens (saying to enable the
    ///   socket), `.permissionDenied`, `.timedOut`, `.connectionLost`.
    package func exchange(_ request: String) throws(ClientError) -> String {
        guard !request.contains("\n") else {
            throw ClientError(
                .malformedReport, socketPath: path, "a setup request is one line of JSON, with no newline")
        }
        let channel: LineChannel
        do { channel = try LineChannel(connectingTo: path) } catch {
            throw Self.explain(error, path: path)
        }
        try channel.send(request)
        let reply: String?
        do { reply = try channel.nextLine(deadline: Monotonic.deadline(after: timeout)) } catch {
            throw ClientError(
                .connectionLost, socketPath: path,
                "the setup service at \(path) closed the connection without a reply; see "
                    + "journalctl -u 'plumscale-setup@*'", errno: error.errno)
        }
        guard let reply else {
            throw ClientError(
                .timedOut, socketPath: path,
                "the setup service at \(path) did not reply within \(Int(timeout.seconds)) s; see "
                    + "journalctl -u 'plumscale-setup@*'")
        }
        return reply
    }

    /// A connect failure in the setup socket's words.
    static func explain(_ error: ClientError, path: String) -> ClientError {
        switch error.code {
        case .noDaemon:
            return ClientError(
                .noDaemon, socketPath: path,
                "nothing listens at the setup socket \(path); enable it with "
                    + "'sudo systemctl enable --now plumscale-setup.socket' (the plumscale package ships it), "
                    + "or set [web] setup_socket to where it listens", errno: error.errno)
        case .permissionDenied:
            return ClientError(
                .permissionDenied, socketPath: path,
                "permission denied opening the setup socket \(path): it is for root and group "
                    + "plumscale-setup; run plumscale-web in that group (its unit does)", errno: error.errno)
        default:
            return error
        }
    }
}
