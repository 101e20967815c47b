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

    /// What a client that has just begun to watch `sensors` (all when empty) is sent after the
    /// `WATCH` acknowledgement: the current state of every alert, as gpsd sends `DEVICES`.
    func watchBegan(sensors: [String]) async -> [Report]

    /// `client`'s connection closed: what it announced about itself (`?CLIENT`) goes. Called on
    /// the event loop, once per connection, after its request in flight was cancelled; it must
    /// not block.
    func clientClosed(_ client: ClientInfo)
}

extension RequestHandler {
    package func knownSensors() async -> [String]? { nil }
    package func watchBegan(sensors: [String]) async -> [Report] { [] }
    package func clientClosed(_ client: ClientInfo) {}
}
