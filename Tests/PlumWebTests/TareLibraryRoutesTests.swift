import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import PlumProtocol
import PlumWeb
import Testing

/// The named tares in the web service: the library is read by anyone who may see the page, and
/// changed, or put into use, only after login; each is the daemon's own request (`?TARES`,
/// `?TARE` with `name` or `grams`), so the web, the CLI and Home Assistant get the same answers.
@Suite("Named tares over HTTP", .timeLimit(.minutes(2)))
struct TareLibraryRoutesTests {
    @Test("the library is listed without login; saving needs it and reaches the daemon as ?TARES")
    func libraryReadOpenlyChangedAfterLogin() async throws {
        let fixture = try WebTestFixture()
        let save = ByteBuffer(string: #"{"save":"bowl","grams":212}"#)
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/api/tares", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"type":"tares","tares":[]}"#, "the daemon's empty library")
            }
            try await client.execute(
                uri: "/api/tares", method: .post, headers: WebTestFixture.sameOrigin, body: save
            ) { #expect($0.status == .unauthorized, "no login, no change to the library") }
            let headers = try await WebTestFixture.logIn(client)
            try await client.execute(uri: "/api/tares", method: .post, headers: headers, body: save) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            try await client.execute(
                uri: "/api/tares", method: .post, headers: headers, body: ByteBuffer(string: "{}")
            ) { response in
                #expect(response.status == .badRequest, "a body that changes nothing is refused")
                #expect(
                    String(buffer: response.body).contains("say what to change"), "\(String(buffer: response.body))")
            }
        }
        #expect(
            fixture.daemon.requests.contains(.tares(.save(name: "bowl", sensor: nil, grams: 212))),
            "\(fixture.daemon.requests)")
    }

    @Test("a tare with a name or grams is the daemon's named or preset tare; both at once is refused")
    func namedAndPresetTares() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            let headers = try await WebTestFixture.logIn(client)
            try await client.execute(
                uri: "/api/tare", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"sensor":"left","grams":212}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""tare":212"#), "\(String(buffer: response.body))")
            }
            try await client.execute(
                uri: "/api/tare", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"sensor":"left","name":"bowl"}"#)
            ) { response in
                // The fake daemon's library is empty: its refusal comes back as the page shows refusals.
                let text = String(buffer: response.body)
                #expect(response.status == .ok && text.contains(#""ok":false"#), "\(text)")
                #expect(text.contains("no named tare"), "\(text)")
            }
            try await client.execute(
                uri: "/api/tare", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"sensor":"left","name":"bowl","grams":1}"#)
            ) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("not both"), "\(String(buffer: response.body))")
            }
        }
        let requests = fixture.daemon.requests
        #expect(requests.contains(.presetTare(sensor: "left", grams: 212)), "\(requests)")
        #expect(requests.contains(.useTare(sensor: "left", name: "bowl")), "\(requests)")
        #expect(!requests.contains(.presetTare(sensor: "left", grams: 1)), "the refused body reached the daemon")
    }
}
