/// Who sent a request.
package struct ClientInfo: Hashable, Sendable {
    /// A number unique among the daemon's clients, for logs.
    package var id: Int
    /// The listener's name, such as the socket path or "127.0.0.1:4001".
    package var listener: String
    /// The kernel's word on who connected (`SO_PEERCRED` and the process's groups) for a
    /// Unix-socket client; nil for a TCP client, which has none.
    package var peer: PeerCredentials?

    package init(id: Int, listener: String, peer: PeerCredentials? = nil) {
        self.id = id
        self.listener = listener
        self.peer = peer
    }
}
