import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumWeb
import Testing

@Suite("Security headers on every answer", .timeLimit(.minutes(1)))
struct SecurityHeadersTests {
    struct Case: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var uri: String
        var body: String?
        var description: String { "\(method) \(uri)" }
    }

    @Test(
        "nosniff, no-referrer and a CSP everywhere, errors included; no-store on every /api/ answer",
        arguments: [
            Case(method: .get, uri: "/"), Case(method: .get, uri: "/api/session"),
            Case(method: .post, uri: "/api/login", body: #"{"password":"wrong"}"#),
            Case(method: .post, uri: "/api/login", body: #"{"password":"\#(WebTestFixture.password)"}"#),
            Case(method: .post, uri: "/api/tare", body: #"{"sensor":"left"}"#),
            Case(method: .get, uri: "/api/history?since=soon"), Case(method: .get, uri: "/metrics")
        ])
    func headers(_ example: Case) async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            try await client.execute(
                uri: example.uri, method: example.method, headers: WebTestFixture.sameOrigin,
                body: example.body.map { ByteBuffer(string: $0) }
            ) { response in
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
                if example.uri.hasPrefix("/api/") {
                    #expect(response.headers[.cacheControl] == "no-store", "status \(response.status)")
                }
            }
        }
    }
}
