import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumWeb
import Testing

/// DNS rebinding: a page on another name that resolves to the scale must get nothing.
@Suite("Host check against DNS rebinding", .timeLimit(.minutes(1)))
struct RebindingTests {
    struct HostCase: Sendable, CustomStringConvertible {
        var host: String
        var allowed: Bool
        var description: String { "\(host) \(allowed ? "allowed" : "refused")" }
    }

    @Test(
        "only loopback, IP addresses and allowed_hosts are answered",
        arguments: [
            HostCase(host: "localhost:8385", allowed: true), HostCase(host: "127.0.0.1:8385", allowed: true),
            HostCase(host: "[::1]:8385", allowed: true), HostCase(host: "192.168.1.20:8385", allowed: true),
            HostCase(host: "Scale.Local:8385", allowed: true), HostCase(host: "scale.local.", allowed: true),
            HostCase(host: "proxy.example:443", allowed: true), HostCase(host: "proxy.example:8385", allowed: false),
            HostCase(host: "evil.example:8385", allowed: false),
            HostCase(host: "127.0.0.1.evil.example", allowed: false),
            HostCase(host: "localhost.evil.example", allowed: false), HostCase(host: "", allowed: false)
        ])
    func hosts(_ example: HostCase) {
        let check = HostCheck(names: ["scale.local", "proxy.example:443"])
        #expect(check.allows(example.host) == example.allowed)
    }

    @Test("a rebinding page's requests get 421 naming the key to set, even with its own Origin")
    func rebindingPage() async throws {
        let fixture = try WebTestFixture(allowedHosts: ["scale.local"])
        try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            let evil = "evil.example:\(port)"
            var headers: HTTPFields = [.origin: "http://\(evil)", .contentType: "application/json"]
            let login = try await Self.send(
                port: port, authority: evil, uri: "/api/login", method: .post, headers: headers,
                body: #"{"password":"\#(WebTestFixture.password)"}"#)
            #expect(login.head.status == .misdirectedRequest, "a rebound page may not even try a password")
            let text = String(buffer: login.body ?? ByteBuffer())
            #expect(
                text.contains("allowed_hosts") && text.contains("evil.example"), "the body says what to set: \(text)")
            for uri in ["/api/history?since=0", "/api/poll", "/"] {
                let read = try await Self.send(port: port, authority: evil, uri: uri, method: .get)
                #expect(read.head.status == .misdirectedRequest, "\(uri) is not read through a rebound name")
            }
            headers[.origin] = "http://scale.local:\(port)"
            let listed = try await Self.send(
                port: port, authority: "scale.local:\(port)", uri: "/api/login", method: .post, headers: headers,
                body: #"{"password":"\#(WebTestFixture.password)"}"#)
            #expect(listed.head.status == .ok, "a name in allowed_hosts works")
        }
    }

    static func send(
        port: Int, authority: String, uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> TestClient.Response {
        let client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        let response = try await client.execute(
            .init(
                uri, method: method, authority: authority, headers: headers,
                body: body.map { ByteBuffer(string: $0) }))
        try await client.shutdown()
        return response
    }
}
