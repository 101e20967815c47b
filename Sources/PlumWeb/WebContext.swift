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
    public var peerIsLocal: Bool { Self.isLocal(peerAddress) }

    /// Whether `address` is this machine's: loopback, or "local" (no channel address).
    public static func isLocal(_ address: String) -> Bool {
        address == "local" || address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }
}

/// A logged-in browser: the token its state-changing requests must echo (`X-CSRF-Token`), the
/// login it came from and the password it was made with, so that a later login or a new
/// password ends it.
public struct WebSession: Codable, Sendable, Hashable {
    public var csrf: String
    /// ``SessionEpoch`` at login: a later login starts a new one and this session is over.
    public var epoch: Int
    /// The end of the password's hash at login: when the file changes, the session is over.
    public var passwordTag: String

    public init(csrf: String, epoch: Int, passwordTag: String) {
        self.csrf = csrf
        self.epoch = epoch
        self.passwordTag = passwordTag
    }
}
