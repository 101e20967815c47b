import PlumProtocol

extension DaemonLink {
    /// Starts, stops, shows or lists weighing sessions (`?SESSION`), as
    /// ``DaemonClient/session(_:timeout:)`` does: a refusal (a session already running, none to
    /// stop, an unknown name) is a reply with `ok` false and the daemon's message, not an error.
    ///
    /// Sent again on a new connection when the daemon restarted meanwhile, like a tare: a second
    /// start is refused (a session runs already) and a second stop finds none running, so
    /// neither does anything twice.
    public func session(
        _ request: SessionRequest, timeout: Duration = .seconds(5)
    ) async throws(ClientError) -> SessionReport {
        let action = request.action.rawValue
        return try await self.request(.session(request), timeout: timeout) { report in
            if case .session(let reply) = report, reply.action == action { reply } else { nil }
        }
    }
}
