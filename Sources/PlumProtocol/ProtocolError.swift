/// A request the daemon cannot take, said so the client's author can fix it.
///
/// Sent back as `{"class":"ERROR","message":"…"}`; the connection stays open.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The report line that carries this error to a client.
    public var report: String { Report.error(message: message).line }
}
