import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumTestSupport
import PlumWeb
import Testing

/// Behind a reverse proxy: X-Forwarded-For from the trusted proxy only, and a Secure cookie.
@Suite("trusted_proxy and cookie_secure", .timeLimit(.minutes(1)))
struct ProxyTests {
    static func login(
        _ client: some TestClientProtocol, forwardedFor: String?
    ) async throws -> HTTPResponse.Status {
        var headers = WebTestFixture.sameOrigin
        if let forwardedFor { headers[.xForwardedFor] = forwardedFor }
        return try await client.execute(
            uri: "/api/login", method: .post, headers: headers,
            body: ByteBuffer(string: #"{"password":"\#(WebTestFixture.password)"}"#)
        ) { $0.status }
    }

    @Test("behind the trusted proxy a LAN client is not local, and the log names it, not the proxy")
    func trustedProxy() async throws {
        let fixture = try WebTestFixture(lanReadOnly: true, trustedProxy: "127.0.0.1")
        try await fixture.application().test(.live) { client in
            let lan = try await Self.login(client, forwardedFor: "10.1.2.3, 192.168.1.40")
            #expect(lan == .forbidden, "the proxy says the client is on the LAN (its word is the last): read-only")
            let own = try await Self.login(client, forwardedFor: nil)
            #expect(own == .ok, "the proxy's own requests are local")
        }
        let open = try WebTestFixture(trustedProxy: "127.0.0.1")
        let log = LogLines()
        try await open.application(logger: log.logger(label: "plumscale-web.test")).test(.live) { client in
            try await client.execute(
                uri: "/api/login", method: .post,
                headers: [
                    .origin: "http://localhost", .contentType: "application/json", .xForwardedFor: "192.168.1.41"
                ],
                body: ByteBuffer(string: #"{"password":"wrong"}"#)
            ) { #expect($0.status == .unauthorized) }
        }
        #expect(log.all.contains { $0.contains("from 192.168.1.41") }, "the client, not the proxy: \(log.all)")
    }

    @Test("without trusted_proxy X-Forwarded-For is ignored: it cannot dodge the back-off or the log")
    func spoofedHeader() async throws {
        let fixture = try WebTestFixture(throttle: LoginThrottle(limit: 1, backoffSeconds: 60))
        let log = LogLines()
        try await fixture.application(logger: log.logger(label: "plumscale-web.test")).test(.live) { client in
            try await client.execute(
                uri: "/api/login", method: .post,
                headers: [.origin: "http://localhost", .contentType: "application/json", .xForwardedFor: "10.9.9.9"],
                body: ByteBuffer(string: #"{"password":"wrong"}"#)
            ) { #expect($0.status == .unauthorized) }
            let again = try await Self.login(client, forwardedFor: "10.9.9.10")
            #expect(again == .tooManyRequests, "a new X-Forwarded-For is no new peer")
        }
        #expect(log.all.contains { $0.contains("from 127.0.0.1") }, "the log names the real peer: \(log.all)")
    }

    @Test("cookie_secure marks the session cookie Secure; by default it is not")
    func secureCookie() async throws {
        for secure in [true, false] {
            let fixture = try WebTestFixture(cookieSecure: secure)
            try await fixture.application().test(.live) { client in
                let status = try await client.execute(
                    uri: "/api/login", method: .post, headers: WebTestFixture.sameOrigin,
                    body: ByteBuffer(string: #"{"password":"\#(WebTestFixture.password)"}"#)
                ) { response in
                    let cookie = response.headers[.setCookie] ?? ""
                    #expect(cookie.lowercased().contains("; secure") == secure, "\(cookie)")
                    return response.status
                }
                #expect(status == .ok)
            }
        }
    }
}
