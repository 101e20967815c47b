internal import Hummingbird

/// Answers only requests that name this scale in `Host`: loopback, an IP address, or a name
/// the administrator listed in `[web] allowed_hosts`. Everything else gets 421.
///
/// DNS rebinding: a page on `evil.example` makes its own name resolve to 127.0.0.1 (or the
/// scale's LAN address) a moment after loading. The browser then sends that page's requests to
/// the scale, as same-origin requests of `evil.example`, with `Host: evil.example` and a
/// matching `Origin`, so the Origin check alone lets them through and the page may read the
/// answers. The attacker cannot choose what the browser writes in `Host`, though: it is the
/// name in the page's address. A page whose address is an IP literal cannot rebind, and the
/// scale's own names are listed, so refusing other names ends the attack. Transmission
/// (`rpc-host-whitelist`) and Syncthing (`insecureSkipHostcheck`) do the same.
package struct HostCheck: Sendable {
    /// `allowed_hosts` entries, lower case; an entry without a port matches any port.
    package let names: [String]

    package init(names: [String]) { self.names = names.map { $0.lowercased() } }

    /// Whether a request with this `Host` (or HTTP/2 `:authority`) may be answered.
    package func allows(_ authority: String) -> Bool {
        let authority = authority.lowercased()
        let (host, port) = Self.split(authority)
        if host == "localhost" || Self.isIPAddress(host) { return true }
        return names.contains { name in
            let (allowedHost, allowedPort) = Self.split(name)
            return allowedHost == host && (allowedPort == nil || allowedPort == port)
        }
    }

    /// Host and port of `host:port`, `[v6]:port`, `host` or `[v6]`; brackets removed, a final dot too.
    static func split(_ authority: String) -> (host: String, port: String?) {
        var host = authority
        var port: String?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") { port = String(rest.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":"), !authority[..<colon].contains(":") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        }
        if host.hasSuffix(".") { host.removeLast() }
        return (host, port)
    }

    /// A dotted IPv4 address (four numbers 0–255) or an IPv6 address (hex digits, colons, dots).
    static func isIPAddress(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ part in UInt8(part) != nil && part.allSatisfy(\.isASCII) }) {
            return true
        }
        return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}

/// The middleware that applies ``HostCheck`` before anything else runs.
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let check: HostCheck

    func handle(
        _ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response
    ) async throws -> Response {
        let authority = request.head.authority ?? ""
        guard check.allows(authority) else {
            let (host, _) = HostCheck.split(authority.lowercased())
            let shown = host.isEmpty ? "(no Host header)" : host
            context.logger.notice("refused a request for Host \(shown) from \(context.peerAddress)")
            let message =
                "plumscale-web does not answer to the name \(shown): a page elsewhere could have pointed that name "
                + "at this scale (DNS rebinding). If you open the page by this name, add it to [web] "
                + "allowed_hosts, such as allowed_hosts = [\"\(host.isEmpty ? "scale.local" : host)\"], and "
                + "restart plumscale-web.\n"
            return Response(
                status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: message)))
        }
        return try await next(request, context)
    }
}
