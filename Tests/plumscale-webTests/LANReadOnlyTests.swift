import Foundation
import PlumSystem
import PlumTestSupport
import PlumTestThreads
import PlumWeb
import Testing

/// `[web] lan_read_only` against a real peer that is not on this machine: curl in a network
/// namespace, reaching a real plumscale-web (fed by a real plumscaled) over a veth pair.
@Suite("LAN read-only from another host", .timeLimit(.minutes(3)), .ownThreads)
struct LANReadOnlyTests {
    static let password = "plum-secret"
    /// Hashed at bcrypt's lowest cost: the test is about who may do what, not about bcrypt.
    static let passwordHash = PasswordFile.makeHash(password, cost: 4)

    @Test(
        "a LAN peer reads the page, API, metrics and /ws; every write is refused, even with a session's token",
        .enabled(if: NetworkNamespace.unavailable == nil, Comment(rawValue: NetworkNamespace.unavailable ?? "")))
    func lanPeerOnlyReads() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        let namespace = try await offPool { try NetworkNamespace() }
        defer { namespace.remove() }
        let directory = try TemporaryDirectory(prefix: "plumlan")
        let port = try freeTCPPort()
        let passwords = try directory.write("web-password", Self.passwordHash + "\n")
        let config = try directory.write(
            "plumscale.toml",
            """
            [web]
            listen = "127.0.0.1:\(port)"
            lan_read_only = true
            auth_file = "\(passwords)"
            """)
        let web = try BackgroundProcess(
            BuiltProducts.folder + "/plumscale-web",
            ["--config", config, "--socket", daemon.socketPath, "--state-directory", directory.path])
        defer { kill(web.pid, SIGTERM) }
        // lan_read_only with a loopback listen address widens it to every address, same port.
        try await offPool { try web.waitForOutput("plumscale-web on http://0.0.0.0:\(port)") }

        let lan = HTTPPeer(base: "http://\(namespace.hostAddress):\(port)", namespace: namespace)
        // A refused connection is retried too: the listener and the veth pair's route may come up
        // a moment after the line that says where the service listens.
        var lastSeen = ""
        try await waitFor(
            "the LAN peer to see both pans", timeout: .seconds(60), interval: .milliseconds(100),
            describe: { lastSeen }
        ) {
            do {
                let poll = try await lan.send("GET", "/api/poll")
                lastSeen = "HTTP \(poll.status): \(poll.body.prefix(300))"
                return poll.status == 200 && poll.body.contains(#""sensor":"left""#)
                    && poll.body.contains(#""sensor":"right""#)
            } catch {
                lastSeen = "\(error)"
                return false
            }
        }

        // Reading: the page, the API, the metrics, the history and the live WebSocket.
        for path in ["/", "/app.js", "/api/poll", "/api/devices", "/metrics", "/api/history?since=1h&format=json"] {
            let reply = try await lan.send("GET", path)
            #expect(reply.status == 200, "the LAN may read \(path): \(reply)")
        }
        let session = try await lan.send("GET", "/api/session")
        #expect(session.body.contains(#""may_log_in":false"#), "the page is told not to offer the login: \(session)")
        let socket = try await lan.webSocketOpening("/ws")
        #expect(socket.contains("101 Switching Protocols"), "the LAN may open the live WebSocket: \(socket)")
        #expect(socket.contains(#""type":"status","connected":true"#), "and it carries the frames: \(socket)")

        // Loopback, the control: the same server lets this machine log in and tare.
        let local = HTTPPeer(base: "http://127.0.0.1:\(port)", namespace: nil)
        let login = try await local.send("POST", "/api/login", json: #"{"password":"\#(Self.password)"}"#)
        #expect(login.status == 200, "this machine may log in: \(login)")
        let setCookie = login.headers.first { $0.lowercased().hasPrefix("set-cookie:") }
        let cookie = try #require(
            setCookie.map { $0.dropFirst("set-cookie:".count).split(separator: ";")[0] }
                .map { $0.trimmingCharacters(in: .whitespaces) },
            "a login sets the session cookie: \(login)")
        let token = try #require(
            login.body.firstMatch(of: /"csrf":"([^"]+)"/)?.1, "a login returns the token: \(login)")
        let stolen = ["Cookie: \(cookie)", "X-CSRF-Token: \(token)"]
        let tare = try await local.send("POST", "/api/tare", json: #"{"sensor":"left"}"#, extra: stolen)
        #expect(tare.status == 200 && tare.body.contains(#""command":"TARE""#), "this machine may tare: \(tare)")

        // Writing from the LAN: refused before anything else is looked at, with the way to do it.
        let writes: [(String, String, [String])] = [
            ("/api/login", #"{"password":"\#(Self.password)"}"#, []),
            ("/api/logout", "{}", []),
            ("/api/tare", #"{"sensor":"left"}"#, []),
            ("/api/tare", #"{"sensor":"left"}"#, stolen),
            ("/api/zero", #"{"sensor":"right"}"#, stolen),
            ("/api/calibrate", #"{"sensor":"left","step":"begin"}"#, stolen),
            ("/api/calibrate", #"{"sensor":"left","step":"cancel"}"#, [])
        ]
        for (path, body, extra) in writes {
            let reply = try await lan.send("POST", path, json: body, extra: extra)
            let what = "POST \(path)\(extra.isEmpty ? "" : " with a session's cookie and token")"
            #expect(reply.status == 403, "the LAN may not \(what): \(reply)")
            #expect(
                reply.body.contains("read-only from the network") && reply.body.contains("ssh -L"),
                "\(what): the refusal says why and what to do: \(reply)")
        }
        _ = try await offPool { web.finish(timeout: .seconds(30)) }
        _ = try await offPool { daemon.terminate() }
    }
}

/// curl as an HTTP client, on this machine or in a ``NetworkNamespace``.
struct HTTPPeer {
    struct Reply: CustomStringConvertible {
        var status: Int
        var headers: [String]
        var body: String
        var description: String { "\(status) \(body)" }
    }

    let base: String
    let namespace: NetworkNamespace?

    /// A request as our own page sends it: with the page's Origin, a JSON body if any.
    func send(_ method: String, _ path: String, json: String? = nil, extra: [String] = []) async throws -> Reply {
        var arguments = ["curl", "-sS", "-i", "--max-time", "20", "-X", method, "-H", "Origin: \(base)"]
        if let json { arguments += ["-H", "Content-Type: application/json", "--data", json] }
        for header in extra { arguments += ["-H", header] }
        let result = try await curl(arguments + [base + path])
        guard result.status == 0 else { throw FixtureError("curl \(method) \(base)\(path): \(result.stderr)") }
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        return Reply(status: status, headers: Array(head.dropFirst()), body: body)
    }

    /// The handshake's answer and the first frames of a WebSocket, read for up to two seconds.
    func webSocketOpening(_ path: String) async throws -> String {
        let result = try await curl([
            "curl", "-sS", "-i", "-N", "--max-time", "2", "-H", "Connection: Upgrade", "-H", "Upgrade: websocket",
            "-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: cGx1bXNjYWxlLWxhbi10ZXN0", base + path
        ])
        return result.stdout
    }

    private func curl(_ command: [String]) async throws -> ChildProcess {
        if let namespace { return try await namespace.run(command) }
        return try await ChildProcess.run(command[0], Array(command.dropFirst()))
    }
}

/// A TCP port nobody listens on now: the kernel's pick for a socket bound to port 0.
func freeTCPPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw FixtureError("socket: errno \(errno)") }
    defer { close(descriptor) }
    let any = InternetSocketAddress(numericHost: "0.0.0.0", port: 0)!
    guard any.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else {
        throw FixtureError("bind to port 0: \(Errno.current)")
    }
    guard let local = try InternetSocketAddress.local(of: descriptor).get() else {
        throw FixtureError("port 0 is bound, but not to an internet address")
    }
    return Int(local.port)
}
