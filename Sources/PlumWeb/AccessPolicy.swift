import FoundationEssentials
package import HTTPTypes
package import Hummingbird
import Synchronization

/// Who may change the scale through the web: a logged-in browser, on this machine unless the
/// LAN was given more than the read-only view, whose request comes from our own page.
///
/// - LAN: with `lan_read_only`, a peer that is not on this machine may read but never log in
///   or change anything.
/// - Host: every request must name the scale (``HostCheck``), so a rebound name cannot reach it.
/// - Origin: a state-changing request must carry an `Origin` (or `Referer`) naming the host it
///   was sent to, so another site's page cannot make a browser send it.
/// - CSRF: and an `X-CSRF-Token` equal to the one its login session was given.
package struct AccessPolicy: Sendable {
    package let lanReadOnly: Bool
    package let passwords: PasswordFile
    /// Failed logins per peer and in all, and the back-off they start.
    package let throttle: LoginThrottle
    /// The names requests may give in `Host`; see ``HostCheck``.
    package let hosts: HostCheck
    /// Counts logins: a session made before the latest one is no longer valid. One user (one
    /// password) means one browser logged in at a time; a stolen cookie ends with the next login.
    package let epoch = SessionEpoch()
    /// The reverse proxy's address (`[web] trusted_proxy`): from it alone, `X-Forwarded-For`
    /// names the client. From anyone else the header is ignored, or a client could claim to be
    /// on the scale itself, or make each guess look like a new peer.
    package let trustedProxy: String?
    /// Whether the session cookie is `Secure` (`[web] cookie_secure`): behind a TLS proxy.
    package let cookieSecure: Bool

    package init(
        lanReadOnly: Bool, passwords: PasswordFile, throttle: LoginThrottle = LoginThrottle(),
        hosts: HostCheck = HostCheck(names: []), trustedProxy: String? = nil, cookieSecure: Bool = false
    ) {
        self.lanReadOnly = lanReadOnly
        self.passwords = passwords
        self.throttle = throttle
        self.hosts = hosts
        self.trustedProxy = trustedProxy
        self.cookieSecure = cookieSecure
    }

    /// The client's address: the peer's, or behind ``trustedProxy`` the last address the proxy
    /// appended to `X-Forwarded-For` (earlier ones are whatever the client wrote).
    package func client(_ request: Request, _ context: WebContext) -> String {
        let peer = context.peerAddress
        guard let trustedProxy, peer == trustedProxy || peer == "::ffff:" + trustedProxy,
            let forwarded = request.headers[.xForwardedFor]?.split(separator: ",").last
        else { return peer }
        let address = String(forwarded.filter { !$0.isWhitespace })
        return address.isEmpty ? peer : address
    }

    /// Whether the client is on this machine (see ``WebContext/isLocal(_:)``).
    package func clientIsLocal(_ request: Request, _ context: WebContext) -> Bool {
        WebContext.isLocal(client(request, context))
    }

    /// Checks a password on ``BlockingWork/password``, the one thread bcrypt may hold.
    /// - Throws: ``WebError`` when the password file cannot be used.
    package func verify(_ password: String) async throws(WebError) -> Bool {
        let passwords = self.passwords
        let result: Result<Bool, WebError>
        do {
            result = try await BlockingWork.password.runIfActive {
                do throws(WebError) { return .success(try passwords.verify(password)) } catch { return .failure(error) }
            }
        } catch {
            throw WebError("the password check could not run: \(error)")
        }
        return try result.get()
    }

    /// Refuses the request unless its peer may change state and it comes from our page.
    package func checkSameOrigin(_ request: Request, _ context: WebContext) throws(HTTPError) {
        if lanReadOnly && !clientIsLocal(request, context) {
            throw HTTPError(
                .forbidden,
                message: "this page is read-only from the network ([web] lan_read_only); "
                    + "open it on the scale itself, or through ssh -L 8385:127.0.0.1:8385")
        }
        guard let host = request.head.authority else {
            throw HTTPError(.forbidden, message: "the request names no Host")
        }
        let origin = request.headers[.origin] ?? request.headers[.referer]
        guard let origin, let url = URL(string: origin), let originHost = url.host else {
            throw HTTPError(.forbidden, message: "a request that changes the scale must come from its page (no Origin)")
        }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        guard originAuthority.lowercased() == host.lowercased() else {
            throw HTTPError(
                .forbidden, message: "a request from \(origin) may not change this scale (expected origin \(host))")
        }
    }

    /// Refuses a WebSocket upgrade whose `Origin` names another site. Without an Origin it is no
    /// browser's (browsers always send one on an upgrade): a script may watch, as it may poll.
    /// An Origin without a port is compared by host alone: browsers write the port whenever it
    /// is not the scheme's default, and WebSocket clients such as Hummingbird's leave it out.
    package func checkWebSocketOrigin(_ request: Request) throws(HTTPError) {
        guard let origin = request.headers[.origin] else { return }
        let authority = (request.head.authority ?? "").lowercased()
        let expected = HostCheck.split(authority)
        guard let url = URL(string: origin), let originHost = url.host?.lowercased(),
            originHost == expected.host, url.port.map({ String($0) == expected.port }) ?? true
        else {
            throw HTTPError(.forbidden, message: "a page from \(origin) may not watch this scale")
        }
    }

    /// Refuses the request unless it also comes from a logged-in browser with its token.
    package func checkAuthorized(_ request: Request, _ context: WebContext) throws(HTTPError) {
        try checkSameOrigin(request, context)
        guard let session = context.sessions.session else {
            throw HTTPError(.unauthorized, message: "log in first: tare, zero and calibration need the password")
        }
        guard isCurrent(session) else {
            context.sessions.clearSession()
            throw HTTPError(
                .unauthorized, message: "logged out: someone logged in since, or the password changed; log in again")
        }
        guard let token = request.headers[.csrfToken], Self.equal(token, session.csrf) else {
            throw HTTPError(.forbidden, message: "missing or wrong X-CSRF-Token; reload the page and log in again")
        }
    }

    /// Whether `session` is from the latest login, with the password the file holds now.
    package func isCurrent(_ session: WebSession) -> Bool {
        session.epoch == epoch.current && (try? Self.tag(passwords.hash())) == session.passwordTag
    }

    /// What a session keeps of the password's hash: its last 16 characters, enough to notice a
    /// new password, too few to help guess it.
    static func tag(_ hash: String) -> String { String(hash.suffix(16)) }

    /// A fresh random token for a new session.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    /// Compares in time independent of where the strings differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension HTTPField.Name {
    /// What a reverse proxy says the client's address was.
    package static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The header that carries a session's CSRF token.
    package static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}

/// The number of the latest login; see ``AccessPolicy/epoch``.
package final class SessionEpoch: Sendable {
    private let value = Atomic(0)

    package init() {}

    package var current: Int { value.load(ordering: .acquiring) }

    /// Starts a new epoch and returns it: every earlier session ends.
    package func next() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }
}
