import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumWeb
import Testing

/// Cross-site WebSocket hijacking and a flood of watchers.
@Suite("WebSocket upgrade checks", .timeLimit(.minutes(1)))
struct WebSocketAccessTests {
    static let upgrade: HTTPFields = [
        .connection: "Upgrade", .upgrade: "websocket", .secWebSocketVersion: "13",
        .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ=="
    ]

    @Test("another site's page may not open /ws; a full house refuses one more with 503")
    func originAndCap() async throws {
        let fixture = try WebTestFixture(maxWatchers: 2)
        try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            // Asked plainly, the refusal says why; asked as an upgrade, no WebSocket is opened.
            let evil: HTTPFields = [.origin: "http://evil.example"]
            try await client.execute(uri: "/ws", method: .get, headers: evil) { response in
                #expect(response.status == .forbidden, "a cross-site page is refused: \(response.status)")
                #expect(String(buffer: response.body).contains("evil.example"))
            }
            var headers = Self.upgrade
            headers[.origin] = "http://evil.example"
            #expect(try await Self.status(port: port, headers: headers) != .switchingProtocols)
            headers[.origin] = "http://localhost:\(port)"
            #expect(try await Self.status(port: port, headers: headers) == .switchingProtocols, "our page may")
            _ = await fixture.board.subscribe()
            _ = await fixture.board.subscribe()
            try await client.execute(uri: "/ws", method: .get) { response in
                #expect(response.status == .serviceUnavailable, "two watchers is the cap: \(response.status)")
                #expect(String(buffer: response.body).contains("close one"))
            }
            #expect(try await Self.status(port: port, headers: headers) != .switchingProtocols, "not over the cap")
        }
    }

    /// The status of an upgrade request on a connection of its own (a refused upgrade closes it).
    static func status(port: Int, headers: HTTPFields) async throws -> HTTPResponse.Status {
        let client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        defer { Task { try? await client.shutdown() } }
        do {
            let response = try await client.execute(
                .init("/ws", method: .get, authority: "localhost:\(port)", headers: headers))
            return response.head.status
        } catch {
            return .badRequest
        }
    }
}
