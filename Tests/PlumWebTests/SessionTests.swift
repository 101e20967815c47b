import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumWeb
import Testing

@Suite("Sessions end with the next login, a new password and a logout", .timeLimit(.minutes(1)))
struct SessionTests {
    static let tare = ByteBuffer(string: #"{"sensor":"left"}"#)

    @Test("a second login ends the first session; a new password ends the second; logout needs the token")
    func revocation() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            let first = try await WebTestFixture.logIn(client)
            let second = try await WebTestFixture.logIn(client)
            try await client.execute(uri: "/api/tare", method: .post, headers: first, body: Self.tare) {
                #expect($0.status == .unauthorized, "the earlier session (a stolen cookie, say) is over")
            }
            try await client.execute(uri: "/api/tare", method: .post, headers: second, body: Self.tare) {
                #expect($0.status == .ok, "the latest login works")
            }
            var noToken = second
            noToken[.csrfToken] = nil
            try await client.execute(uri: "/api/logout", method: .post, headers: noToken, body: ByteBuffer()) {
                #expect($0.status == .forbidden, "another site cannot log the user out: no token, no logout")
            }
            try fixture.temporary.write("web-password", PasswordFile.makeHash("a new password", cost: 4) + "\n")
            try await client.execute(uri: "/api/tare", method: .post, headers: second, body: Self.tare) {
                #expect($0.status == .unauthorized, "a new password ends the session made with the old")
            }
            try await client.execute(uri: "/api/session", method: .get, headers: second) { response in
                #expect(String(buffer: response.body).contains(#""logged_in":false"#))
            }
        }
        #expect(fixture.daemon.requests.filter { $0 == .tare(sensor: "left") }.count == 1)
    }
}
