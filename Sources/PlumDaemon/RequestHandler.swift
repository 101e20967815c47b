public import PlumProtocol

/// Answers the requests the transport does not answer itself (everything but `?WATCH` and
/// `?VERSION`): implemented by the composer with the engine and the samplers.
///
/// Calls for one client come one at a time, in the order the client sent them; calls for
/// different clients may run concurrently.
public protocol RequestHandler: Sendable {
    /// The reply lines (each a complete JSON object, with or without its newline) for `request`.
    /// Return ``ProtocolError/report`` for a request that cannot be carried out.
    func reply(to request: Request, from client: ClientInfo) async -> [String]

    /// The configured sensor names, to refuse a `?WATCH` of one that does not exist; nil
    /// accepts any name.
    func knownSensors() async -> [String]?
}

extension RequestHandler {
    public func knownSensors() async -> [String]? { nil }
}
