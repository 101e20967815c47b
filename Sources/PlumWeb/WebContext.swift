package import Hummingbird
package import HummingbirdAuth
package import HummingbirdWebSocket
package import NIOCore

/// The request context of plumscale-web: the login session, the peer's address (for the
/// LAN's read-only rule) and the WebSocket upgrade.
package struct WebContext: RequestContext, WebSocketRequestContext, SessionRequestContext,
    RemoteAddressRequestContext
{
    package var coreContext: CoreRequestContextStorage
    package let webSocket: WebSocketHandlerReference<WebContext>
    package let sessions: SessionContext<WebSession>
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        sessions = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address for logs and the login back-off; "local" without a channel address.
    package var peerAddress: String { remoteAddress?.ipAddress ?? "local" }

    /// Whether the peer is on this machine. A context made without a channel address (the
    /// in-process test router) counts as local.
    package var peerIsLocal: Bool { Self.isLocal(peerAddress) }

    /// Whether `address` is this machine's: loopback, or "local" (no channel address).
    package static func isLocal(_ address: String) -> Bool {
        address == "local" || address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }
}

/// A logged-in browser: the token its state-changing requests must echo (`X-CSRF-Token`), the
/// login it came from and the password it was made with, so that a later login or a new
/// password ends it.
package struct WebSession: Codable, Sendable, Hashable {
    package var csrf: String
    /// ``SessionEpoch`` at login: a later login starts a new one and this session is over.
    package var epoch: Int
    /// The end of the password's hash at login: when the file changes, the session is over.
    package var passwordTag: String

    package init(csrf: String, epoch: Int, passwordTag: String) {
        self.csrf = csrf
        self.epoch = epoch
        self.passwordTag = passwordTag
    }
}
