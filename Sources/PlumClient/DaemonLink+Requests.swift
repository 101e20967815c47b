import PlumProtocol

extension DaemonLink: AsyncDaemonRequests {
    /// Sends `call` on the requests' connection and returns the first report its matcher accepts.
    ///
    /// A connection the daemon dropped since the last request (it restarted) is opened again
    /// and the request sent once more when the call is ``DaemonCall/repeatable``: reading
    /// requests, tare and zero come to no harm when sent twice (a tare sets the same offset
    /// again); a calibration step is never sent twice.
    /// - Throws: ``ClientError``: `.noDaemon` or `.permissionDenied` naming the socket and what
    ///   to do when the daemon cannot be reached; `.daemonError` or `.unknownSensor` when it
    ///   refuses (the link is fine); `.connectionLost` or `.timedOut` otherwise.
    public func request<Answer: Sendable>(_ call: DaemonCall<Answer>, timeout: Duration? = nil)
        async throws(ClientError)
        -> Answer
    {
        var retried = !call.repeatable
        while true {
            let client = try await requestConnection(for: call.request)
            do {
                return try await client.request(call, timeout: timeout)
            } catch {
                switch error.code {
                case .daemonError, .unknownSensor:
                    throw error
                default:
                    // Lost, timed out (a late answer would be in the next one's way) or garbled:
                    // the connection is done with.
                    dropRequestConnection(client)
                    guard error.code == .connectionLost, !retried, !Task.isCancelled else { throw error }
                    retried = true
                }
            }
        }
    }
}
