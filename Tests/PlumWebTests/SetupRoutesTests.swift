import Foundation
import Hummingbird
import HummingbirdTesting
import PlumTestSupport
import PlumWeb
import Testing

/// `POST /api/setup`, the page's first run: relayed to a real Unix socket that starts the real
/// `plumscale setup --serve` per connection, as `plumscale-setup.socket` (`Accept=yes`) does.
@Suite("The first run over HTTP, through the setup socket", .timeLimit(.minutes(3)))
struct SetupRoutesTests {
    /// The setup socket in the fixture's directory, serving a configuration there on a fake
    /// hardware tree with one IIO HX711.
    static func setupSocket(_ files: TemporaryDirectory, daemon: String) throws -> SetupSocketFixture {
        try files.write("tree/sys/bus/iio/devices/iio:device0/name", "hx711\n")
        return try SetupSocketFixture(
            path: files.file("setup.sock"),
            arguments: [
                "--config", files.file("plumscale.toml"), "--credentials-dir", files.path, "--no-systemd",
                "--probe-root", files.file("tree"), "--socket", daemon, "--daemon-wait", "60"
            ], log: files.file("setup.log"))
    }

    static func post(
        _ client: some TestClientProtocol, _ body: String, headers: HTTPFields
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: "/api/setup", method: .post, headers: headers, body: ByteBuffer(string: body)) {
            response in
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            return (response.status, object ?? ["body": String(buffer: response.body)])
        }
    }

    @Test("an administrator gets the steps: not set up, the hardware's choices, the preview, and apply writes the file")
    func administratorApplies() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let files = try TemporaryDirectory(prefix: "plumwebsetup")
        let socket = try Self.setupSocket(files, daemon: scale.socket)
        defer { socket.stop() }
        let fixture = try WebTestFixture(setupSocket: socket.path)
        // No load_file: a request may not name files (the daemon's own pan has one).
        let pan = #"{"name":"pan","kind":"simulated-hx711","seed":3}"#
        try await fixture.application().test(.live) { client in
            let headers = try await WebTestFixture.logIn(client)
            let (status, state) = try await Self.post(client, #"{"request":"state"}"#, headers: headers)
            #expect(status == .ok && state["set_up"] as? Bool == false, "\(state)")
            let (_, probe) = try await Self.post(client, #"{"request":"probe","hx711":false}"#, headers: headers)
            let choices = try #require(probe["choices"] as? [[String: Any]], "\(probe)")
            #expect(choices.map { $0["what"] as? String } == ["iio:device0 [hx711] through the kernel's driver"])
            let (_, preview) = try await Self.post(
                client, "{\"request\":\"preview\",\n\"sensors\":[\(pan)]}", headers: headers)
            #expect((preview["text"] as? String)?.contains("name = \"pan\"") == true, "\(preview)")
            let (applied, reply) = try await Self.post(
                client, #"{"request":"apply","sensors":[\#(pan)]}"#, headers: headers)
            #expect(applied == .ok && reply["ok"] as? Bool == true, "\(reply) log: \(readFile(socket.log))")
            #expect(reply["calibrate"] as? [String] == ["pan"])
            let (_, after) = try await Self.post(client, #"{"request":"state"}"#, headers: headers)
            #expect(after["set_up"] as? Bool == true, "\(after)")
        }
        // Loaded by the daemon's loader in the setup process before it was written (and by the daemon).
        #expect(readFile(files.file("plumscale.toml")).contains("name = \"pan\"\nkind = \"simulated-hx711\""))
        #expect(socket.connections == 5, "one setup process per request")
    }

    @Test("a client that has not logged in is refused, and nothing reaches the setup socket")
    func notLoggedIn() async throws {
        let files = try TemporaryDirectory(prefix: "plumwebsetup")
        let socket = try Self.setupSocket(files, daemon: files.file("nobody.sock"))
        defer { socket.stop() }
        let fixture = try WebTestFixture(setupSocket: socket.path)
        try await fixture.application().test(.live) { client in
            let (status, _) = try await Self.post(client, #"{"request":"state"}"#, headers: WebTestFixture.sameOrigin)
            #expect(status == .unauthorized)
            var forged = try await WebTestFixture.logIn(client)
            forged[.csrfToken] = "wrong"
            let (wrongToken, _) = try await Self.post(client, #"{"request":"state"}"#, headers: forged)
            #expect(wrongToken == .forbidden)
        }
        #expect(socket.connections == 0)
    }

    @Test("with no setup socket, the administrator is told to enable plumscale-setup.socket")
    func noSocket() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            let headers = try await WebTestFixture.logIn(client)
            let (status, reply) = try await Self.post(client, #"{"request":"state"}"#, headers: headers)
            #expect(status == .serviceUnavailable)
            #expect(
                (reply["error"] as? String)?.contains("sudo systemctl enable --now plumscale-setup.socket") == true,
                "\(reply)")
        }
    }
}
