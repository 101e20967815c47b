import Foundation
import PlumTestSupport
import PlumWeb
import Testing

/// The web password as plumscale-web.service passes it: systemd's `LoadCredential=` copy in
/// `$CREDENTIALS_DIRECTORY/web-password`, here a real directory given to a real plumscale-web.
@Suite("plumscale-web reads its password from a systemd credential", .serialized, .timeLimit(.minutes(2)))
struct WebCredentialTests {
    static let credentialPassword = "from the credential"
    static let filePassword = "from auth_file, as before"

    /// plumscale-web on a free loopback port, with `credential` (nil: none) as the content of
    /// `$CREDENTIALS_DIRECTORY/web-password` and `[web] auth_file` holding ``filePassword``'s hash
    /// when `authFile` says so. No daemon is needed to log in.
    static func start(
        credential: String?, authFile: Bool, in directory: TemporaryDirectory
    ) async throws -> (BackgroundProcess, HTTPPeer) {
        let port = try freeTCPPort()
        let credentials = try directory.makeDirectory("credentials")
        if let credential { try directory.write("credentials/web-password", credential) }
        if authFile { try directory.write("web-password", PasswordFile.makeHash(filePassword, cost: 4) + "\n") }
        let config = try directory.write(
            "plumscale.toml",
            "[web]\nlisten = \"127.0.0.1:\(port)\"\nauth_file = \"\(directory.file("web-password"))\"\n")
        let web = try BackgroundProcess(
            BuiltProducts.folder + "/plumscale-web",
            [
                "--config", config, "--socket", directory.file("no-daemon.sock"), "--state-directory",
                directory.path
            ],
            environment: ["CREDENTIALS_DIRECTORY": credentials])
        try await offPool { try web.waitForOutput("plumscale-web on http://127.0.0.1:\(port)") }
        // The line comes just before the listener is bound.
        try await waitFor("plumscale-web to accept on 127.0.0.1:\(port)", describe: { web.stderr }) {
            LoopbackPort.accepts(port)
        }
        return (web, HTTPPeer(base: "http://127.0.0.1:\(port)", namespace: nil))
    }

    static func logIn(_ peer: HTTPPeer, _ password: String) async throws -> HTTPPeer.Reply {
        try await peer.send("POST", "/api/login", json: #"{"password":"\#(password)"}"#)
    }

    @Test("a hash in the credential is the password, over the one [web] auth_file names")
    func credentialWins() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcred")
        let hash = PasswordFile.makeHash(Self.credentialPassword, cost: 4)
        let (web, peer) = try await Self.start(credential: hash + "\n", authFile: true, in: directory)
        defer { kill(web.pid, SIGTERM) }
        #expect(web.stderr.contains("password \(directory.path)/credentials/web-password"), "\(web.stderr)")
        let good = try await Self.logIn(peer, Self.credentialPassword)
        #expect(good.status == 200 && good.body.contains(#""logged_in":true"#), "\(good)")
        let old = try await Self.logIn(peer, Self.filePassword)
        #expect(old.status == 401, "auth_file's password no longer logs in: \(old)")
    }

    @Test("an empty credential (the package's placeholder) is no password: auth_file as before, else none is set")
    func emptyCredentialFallsBack() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcred")
        let (web, peer) = try await Self.start(credential: "", authFile: true, in: directory)
        defer { kill(web.pid, SIGTERM) }
        let fromFile = try await Self.logIn(peer, Self.filePassword)
        #expect(fromFile.status == 200, "auth_file's password, as without credentials: \(fromFile)")

        let bare = try TemporaryDirectory(prefix: "plumcred")
        let (unset, unsetPeer) = try await Self.start(credential: "\n", authFile: false, in: bare)
        defer { kill(unset.pid, SIGTERM) }
        let none = try await Self.logIn(unsetPeer, Self.filePassword)
        #expect(none.status == 503 && none.body.contains("no password is set"), "no login configured: \(none)")
        let answer = none.body.replacingOccurrences(of: "\\/", with: "/")  // JSON may escape each slash
        #expect(answer.contains(PasswordFile.credentialSource), "the answer says where to put one: \(none)")
    }
}
