/// Who sent a request.
public struct ClientInfo: Hashable, Sendable {
    /// A number unique among the daemon's clients, for logs.
    public var id: Int
    /// The listener's name, such as the socket path or "127.0.0.1:4001".
    public var listener: String
}
