import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import Logging
import PlumClient
import PlumHistory
import PlumTestSupport
import PlumWeb

/// A web service over PlumTestSupport's ``FakeDaemon`` (a real socket, through a ``DaemonLink``),
/// with a password file and a history in a fresh temporary directory.
struct WebTestFixture {
    static let password = "plum-secret"
    /// One hash for every test: bcrypt is slow by design.
    static let passwordHash = PasswordFile.makeHash(password, cost: 4)

    let temporary: TemporaryDirectory
    var directory: String { temporary.path }
    /// The daemon the actions reach; it records their requests.
    let daemon: FakeDaemon
    private let daemonOwner: DaemonOwner
    let metrics = WebMetrics()
    let board: PanBoard
    let history: HistoryStore
    /// What records into `history`, with the policy the test asked for; nil: the store is served alone.
    let keeper: HistoryKeeper?
    let service: WebService
    let now: Double

    init(
        lanReadOnly: Bool = false, now: Double = 1_795_388_400, passwordFile: Bool = true,
        passwordHash: String = WebTestFixture.passwordHash, throttle: LoginThrottle = LoginThrottle(),
        allowedHosts: [String] = [], maxWatchers: Int = 100, trustedProxy: String? = nil, cookieSecure: Bool = false,
        sessionLifetime: Duration = .seconds(12 * 3600), sessionStore: LoginSessionStore = LoginSessionStore(),
        setupSocket: String? = nil, batching: HistoryBatch.Policy? = nil
    ) throws {
        // A fresh directory that goes away with the fixture.
        temporary = try TemporaryDirectory(prefix: "plumweb")
        let directory = temporary.path
        if passwordFile { try temporary.write("web-password", passwordHash + "\n") }
        daemon = try FakeDaemon(path: temporary.file("plumscaled.sock"))
        daemonOwner = DaemonOwner(daemon)
        board = PanBoard(metrics: metrics)
        history = try HistoryStore(path: directory + "/history.sqlite")
        let store = history
        let keeper = batching.map { HistoryKeeper(store: store, retentionDays: 90, batching: $0) }
        self.keeper = keeper
        self.now = now
        service = WebService(
            daemon: DaemonLink(socketPath: daemon.path), board: board, metrics: metrics, history: history,
            access: AccessPolicy(
                lanReadOnly: lanReadOnly, passwords: PasswordFile(path: directory + "/web-password"),
                throttle: throttle, hosts: HostCheck(names: allowedHosts), trustedProxy: trustedProxy,
                cookieSecure: cookieSecure),
            now: { now }, maxWatchers: maxWatchers, sessionLifetime: sessionLifetime, sessionStore: sessionStore,
            keeper: keeper,
            setup: SetupSocketClient(path: setupSocket ?? directory + "/no-setup.sock", timeout: .seconds(90)))
    }

    func application(
        logger: Logger = Logger(label: "test"), idleTimeout: Duration = .seconds(60)
    ) -> some ApplicationProtocol {
        service.makeApplication(listen: "127.0.0.1", port: 0, services: [], logger: logger, idleTimeout: idleTimeout)
    }

    /// The headers a request from our own page carries.
    static let sameOrigin: HTTPFields = [.origin: "http://localhost", .contentType: "application/json"]

    /// Logs in; returns the headers (cookie, token, origin) that authorize later requests.
    static func logIn(_ client: some TestClientProtocol) async throws -> HTTPFields {
        try await client.execute(
            uri: "/api/login", method: .post, headers: sameOrigin,
            body: ByteBuffer(string: #"{"password":"\#(password)"}"#)
        ) { response in
            guard response.status == .ok, let cookie = response.headers[.setCookie]?.split(separator: ";").first,
                let token = try? JSONDecoder().decode(
                    [String: TokenField].self, from: Data(buffer: response.body))["csrf"]
            else { throw LoginFailed(status: "\(response.status)", body: String(buffer: response.body)) }
            var headers = sameOrigin
            headers[.cookie] = String(cookie)
            headers[.csrfToken] = token.text
            return headers
        }
    }

    /// Stops the fake daemon when the last copy of the fixture goes.
    private final class DaemonOwner: Sendable {
        let daemon: FakeDaemon
        init(_ daemon: FakeDaemon) { self.daemon = daemon }
        deinit { daemon.stop() }
    }

    struct LoginFailed: Error {
        var status: String
        var body: String
    }

    /// `csrf` is a string; `logged_in` is not, and is skipped.
    struct TokenField: Decodable {
        var text = ""
        init(from decoder: any Decoder) throws {
            text = (try? decoder.singleValueContainer().decode(String.self)) ?? ""
        }
    }
}
