import PlumProtocol

extension DaemonClient {
    /// Starts, stops, shows or lists weighing sessions (`?SESSION`). A refusal (a session
    /// already running, none to stop, an unknown name) is a reply with `ok` false and a
    /// message that says what to do, not an error; starting and stopping need the client to
    /// be authorised, as `?TARE` does.
    public func session(_ request: SessionRequest, timeout: Duration = .seconds(5)) throws(ClientError) -> SessionReport
    {
        try self.request(.session(request), timeout: timeout) { report in
            if case .session(let reply) = report, reply.action == request.action.rawValue { reply } else { nil }
        }
    }
}
