public import Hummingbird
public import HummingbirdAuth
public import HummingbirdWebSocket
public import NIOCore

/// The request context of plumscale-web: the login session, the peer's address (for the
/// LAN's read-only rule) and the WebSocket upgrade.
public struct WebContext: RequestContext, WebSocketRequestContext, SessionRequestContext,
    RemoteAddressRequestContext
{
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<WebContext>
    public let sessions: SessionContext<WebSession>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        sessions = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address for logs and the login back-off; "local" without a channel address.
    public var peerAddress: String { remoteAddress?.ipAddress ?? "local" }

    /// Whether the peer is on this machine. A context made without a channel address (the
    /// in-process test router) counts as local.
    public var peerIsLocal: Bool {
        guard let address = remoteAddress?.ipAddress else { return true }
        return address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }
}

/// A logged-in browser: the token its state-changing requests must echo (`X-CSRF-Token`).
public struct WebSession: Codable, Sendable, Hashable {
    public var csrf: String

    public init(csrf: String) { self.csrf = csrf }
}
