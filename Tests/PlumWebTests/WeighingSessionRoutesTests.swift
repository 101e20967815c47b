import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import Logging
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumWeb
import Testing

/// The weighing sessions over HTTP against a real `plumscaled` with a simulated pan whose load
/// is a file the test writes: the routes are the daemon's own `?SESSION`, its refusals come
/// back in its words, and the board passes its ITEM and SESSION news on to the browsers.
@Suite("Weighing sessions over HTTP, against a real plumscaled", .timeLimit(.minutes(4)))
struct WeighingSessionRoutesTests {
    static let configuration = SeededPlums.classes + SeededPlums.pan(loadFile: "{dir}/pan.grams", seed: 5)

    /// Three plums, one per class, none near a boundary.
    static let plums: [(grams: Double, weightClass: String)] = [(42.37, "medium"), (71.05, "large"), (18.62, "small")]

    @Test("start, three plums, show, CSV, stop, list; every refusal a clear JSON error in the daemon's words")
    func sessionOverHTTP() async throws {
        let directory = try TemporaryDirectory(prefix: "plumweighing")
        try directory.write("pan.grams", "0\n")
        let daemon = try await offPool {
            try DaemonFixture(
                configuration: Self.configuration.replacing("{dir}", with: directory.path), directory: directory)
        }
        let (board, application) = try Self.web(daemon: daemon, directory: directory)
        try await application.test(.live) { client in
            try await Self.waitForEmptyPan(board)
            let (_, frames, _) = await board.subscribe()
            var news = frames.makeAsyncIterator()
            try await client.execute(uri: "/api/weighing/session", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no session yet"), "\(String(buffer: response.body))")
            }
            try await Self.post(client, #"{"action":"start","name":"crate-1"}"#, WebTestFixture.sameOrigin) {
                #expect($0 == .unauthorized, "no login, no session: \($1)")
            }
            let login = try await WebTestFixture.logIn(client)
            try await Self.post(client, #"{"action":"start"}"#, login) {
                #expect($0 == .badRequest && $1.contains("a session needs a name"), "\($1)")
            }
            let long = String(repeating: "n", count: SessionRequest.maximumNameLength + 1)
            try await Self.post(client, #"{"action":"start","name":"\#(long)"}"#, login) {
                #expect(
                    $0 == .badRequest && $1.contains("is 65 bytes of UTF-8; at most 64 are kept"),
                    "the daemon's ERROR: \($1)")
            }
            try await Self.post(client, #"{"action":"pause"}"#, login) {
                #expect($0 == .badRequest && $1.contains("POST takes"), "\($1)")
            }
            try await Self.post(client, #"{"action":"start","name":"crate-1"}"#, login) {
                #expect($0 == .ok && $1.contains("session crate-1 started on pan"), "\($1)")
            }
            try await Self.post(client, #"{"action":"start","name":"crate-2"}"#, login) {
                #expect($0 == .conflict && $1.contains(#""ok":false"#) && $1.contains("stop it first"), "\($1)")
            }
            for plum in Self.plums {
                try directory.write("pan.grams", "\(plum.grams)\n")
                try await LiveFeedTests.next(&news, containing: #""event":"placed""#)
                try await LiveFeedTests.next(&news, containing: #""type":"session""#)
                try directory.write("pan.grams", "0\n")
                try await LiveFeedTests.next(&news, containing: #""event":"removed""#)
            }
            let shown = try await Self.get(client, "/api/weighing/session")
            let session = try #require(shown.sessions.first)
            let items = try #require(session.items)
            #expect(session.name == "crate-1" && session.running && items.count == 3, "\(session)")
            for (item, plum) in zip(items, Self.plums) {
                #expect(abs(item.grams - plum.grams) <= 0.1 + 1e-9, "item \(item.item): \(item.grams) g, \(plum.grams)")
                #expect(item.weightClass == plum.weightClass, "item \(item.item)")
            }
            #expect(session.classes.map(\.count) == [1, 1, 1], "\(session.classes)")
            try await client.execute(uri: "/api/weighing/session.csv", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(response.headers[.contentDisposition] == #"attachment; filename="crate-1.csv""#)
                #expect(String(buffer: response.body) == SessionCSV.text(session), "the CLI's columns")
                #expect(String(buffer: response.body).split(separator: "\n").count == 4, "a header and 3 rows")
            }
            try await Self.post(client, #"{"action":"stop"}"#, login) {
                #expect($0 == .ok && $1.contains("session crate-1 stopped: 3 items"), "\($1)")
            }
            try await Self.post(client, #"{"action":"stop"}"#, login) {
                #expect($0 == .conflict && $1.contains("no session runs"), "\($1)")
            }
            let list = try await Self.get(client, "/api/weighing/sessions")
            #expect(list.sessions.map(\.name) == ["crate-1"] && list.sessions.first?.stopped != nil, "\(list)")
            #expect(list.sessions.first?.count == 3 && list.sessions.first?.items == nil, "figures only")
            try await client.execute(uri: "/api/weighing/session.csv?name=crate-9", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no session named crate-9; kept: crate-1"))
            }
        }
        _ = try await offPool { daemon.terminate() }
    }

    @Test("a session's name becomes a safe file name for the export")
    func fileNames() {
        #expect(WeighingSessionRoutes.fileName("crate-12") == "crate-12")
        #expect(WeighingSessionRoutes.fileName(#"a"b/c d"#) == "a_b_c_d")
        #expect(WeighingSessionRoutes.fileName("..") == "session")
    }

    /// The service as plumscale-web runs it: its link to the daemon, and the feed as a service.
    static func web(
        daemon: DaemonFixture, directory: TemporaryDirectory
    ) throws -> (PanBoard, some ApplicationProtocol) {
        try directory.write("web-password", WebTestFixture.passwordHash + "\n")
        let link = DaemonLink(socketPath: daemon.socketPath)
        let board = PanBoard()
        let service = WebService(
            daemon: link, board: board, metrics: WebMetrics(), history: nil,
            access: AccessPolicy(
                lanReadOnly: false, passwords: PasswordFile(path: directory.file("web-password")),
                throttle: LoginThrottle()))
        let feed = DaemonFeed(link: link, board: board, history: nil, logger: Logger(label: "test"))
        return (
            board,
            service.makeApplication(listen: "127.0.0.1", port: 0, services: [feed], logger: Logger(label: "test"))
        )
    }

    /// The empty pan stable near 0 g for a second of its readings: the item detector's first
    /// level is then confirmed, and the first plum is an item (docs/items.md).
    static func waitForEmptyPan(_ board: PanBoard) async throws {
        var since: Double?
        try await waitFor("a second of stable empty-pan readings", timeout: .seconds(60)) {
            guard let reading = await board.reading("pan"), reading.stable, abs(reading.grams ?? .nan) < 0.5 else {
                since = nil
                return false
            }
            let first = since ?? reading.time
            since = first
            return reading.time >= first + 1
        }
    }

    static func post(
        _ client: some TestClientProtocol, _ body: String, _ headers: HTTPFields,
        _ check: (HTTPResponse.Status, String) -> Void
    ) async throws {
        let (status, text) = try await client.execute(
            uri: "/api/weighing/session", method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { ($0.status, String(buffer: $0.body)) }
        check(status, text)
    }

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> SessionReport {
        try await client.execute(uri: uri, method: .get) { response in
            #expect(response.status == .ok, "\(uri): \(String(buffer: response.body))")
            return try JSONDecoder().decode(SessionReport.self, from: Data(buffer: response.body))
        }
    }
}
