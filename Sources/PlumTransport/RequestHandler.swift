package import PlumProtocol

/// Answers the requests the transport does not answer itself (everything but `?WATCH` and
/// `?VERSION`): implemented by the composition with the station. Replies are typed reports; the
/// transport encodes them with the protocol's one encoder.
///
/// Calls for one client come one at a time, in the order the client sent them; calls for
/// different clients may run concurrently.
package protocol RequestHandler: Sendable {
    /// The replies to `request`; ``Report/error(message:)`` for one that cannot be carried out.
    func reply(to request: Request, from client: ClientInfo) async -> [Report]

    /// The configured sensor names, to refuse a `?WATCH` of one that does not exist; nil
    /// accepts any name.
    func knownSensors() async -> [String]?
}

extension RequestHandler {
    package func knownSensors() async -> [String]? { nil }
}
