import PlumSettings
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets from systemd's `LoadCredential=`: `$CREDENTIALS_DIRECTORY/<name>`, here a real
/// directory. The package makes every source file, empty until a secret is set, so an empty
/// credential must behave as no credential at all.
@Suite("systemd credentials: $CREDENTIALS_DIRECTORY", .timeLimit(.minutes(2)))
struct ServiceCredentialTests {
    @Test("a credential with content is used; an empty or blank one, a missing one or no directory is not set")
    func setOrNot() throws {
        let directory = try TemporaryDirectory(prefix: "plumcred")
        try directory.write("mqtt-password", "s3cret\n")
        try directory.write("web-password", "")
        try directory.write("blank", " \n\t\n")
        #expect(ServiceCredential.path("mqtt-password", in: directory.path) == directory.file("mqtt-password"))
        #expect(ServiceCredential.path("web-password", in: directory.path) == nil, "empty: the placeholder")
        #expect(ServiceCredential.path("blank", in: directory.path) == nil, "white space is no secret")
        #expect(ServiceCredential.path("absent", in: directory.path) == nil)
        #expect(ServiceCredential.path("mqtt-password", in: nil) == nil, "outside a unit with credentials")
    }

    @Test("a credential that is there but cannot be read is handed on, so its reader says why, not ignored")
    func unreadableIsReported() throws {
        let directory = try TemporaryDirectory(prefix: "plumcred")
        // A link to itself: open(2) fails with ELOOP, as it would with EACCES for another user.
        #expect(symlink("web-password", directory.file("web-password")) == 0)
        #expect(ServiceCredential.path("web-password", in: directory.path) == directory.file("web-password"))
    }

    /// A password from the empty credential would stop the bridge at start: this file sets no
    /// username, which a password needs.
    @Test("plumscale-mqtt with an empty mqtt-password credential connects without a password, as before")
    func emptyCredentialIsNoPassword() async throws {
        let broker = try await MosquittoBroker.start()
        let daemon = try await BridgeProcessTests.daemon()
        let credentials = try daemon.directory.makeDirectory("credentials")
        try daemon.directory.write("credentials/mqtt-password", "")
        let config = try daemon.directory.write("empty.toml", "[scale]\ndivision_grams = 0.1\n[mqtt]\nheartbeat = 30\n")
        let bridge = try BackgroundProcess(
            BuiltProducts.plumscaleMQTT,
            [
                "--config", config, "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(broker.port)",
                "--scale-id", "empty"
            ],
            environment: ["CREDENTIALS_DIRECTORY": credentials])
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/empty/status"])
        #expect(await watcher.first(within: 30) { $0.text == "online" } != nil, "online: \(bridge.stderr)")
        watcher.stop()
        bridge.stop()
        await BridgeProcessTests.stop(daemon)
    }
}
