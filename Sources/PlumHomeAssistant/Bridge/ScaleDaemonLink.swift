package import PlumProtocol

/// The bridge's view of plumscaled: reports in, tare and zero out. The executable implements it
/// over PlumClient (the one client of the daemon's socket); the bridge knows no sockets.
package protocol ScaleDaemonLink: Sendable {
    /// What happens on the daemon side, for as long as the bridge runs: the link reconnects by
    /// itself when the daemon restarts and says so with ``DaemonEvent``s.
    func events() -> AsyncStream<DaemonEvent>
    /// Sends `?TARE` or `?ZERO` for `pan` and returns the daemon's answer.
    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply
    /// Asks `?DEVICES`: each sensor's state, last fault, calibration and discard counters, and
    /// the daemon's uptime, for the diagnostic entities.
    func devices() async throws -> DevicesReport
    /// Sends a settings request (a preset or named tare, `?TARES`, `?ALERT`) and returns the
    /// daemon's answer, an `ERROR` included: a refusal is shown to the user, not thrown.
    func settings(_ request: Request) async throws -> Report
    /// The broker connection changed: nil when connected, else why not. The executable's link
    /// tells the daemon (`?CLIENT` detail), so `plumscale status` shows the broker's state.
    func brokerChanged(problem: String?)
}

extension ScaleDaemonLink {
    /// A link to a daemon before protocol 1.5 carries no settings.
    package func settings(_ request: Request) async throws -> Report {
        .error(message: "\(request.name) is not supported by this link")
    }

    package func brokerChanged(problem: String?) {}
}

/// One thing that happened on the daemon side.
package enum DaemonEvent: Hashable, Sendable {
    /// Connected and watching; `pans` are the daemon's sensors, in its order.
    case connected(pans: [String])
    /// A report the daemon sent while watching.
    case report(Report)
    /// The connection is gone (the daemon stopped or restarted); the link is reconnecting.
    case disconnected(reason: String)
}
