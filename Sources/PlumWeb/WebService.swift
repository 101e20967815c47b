import FoundationEssentials
package import Hummingbird
internal import HummingbirdAuth
import HummingbirdCore
internal import HummingbirdWebSocket
package import Logging
internal import NIOCore
package import PlumClient
package import PlumHistory
internal import PlumProtocol
package import ServiceLifecycle

/// plumscale-web's HTTP side: the page, its WebSocket, the JSON API, the history, the
/// metrics and the actions; the actions go to plumscaled through the ``DaemonLink`` that
/// ``DaemonFeed`` runs.
package struct WebService: Sendable {
    package let daemon: DaemonLink
    package let board: PanBoard
    package let metrics: WebMetrics
    package let history: HistoryStore?
    /// What records the history, for `/api/status` to say when its writes fail; nil in tests
    /// that serve a store alone.
    package let keeper: HistoryKeeper?
    package let access: AccessPolicy
    /// Replaces the wall clock in tests.
    package let now: @Sendable () -> Double
    /// WebSocket watchers at most: each holds a socket, a task and a queue of frames.
    package let maxWatchers: Int
    /// The sessions; a service of the application, so its tidying runs and expired sessions go.
    package let sessionStore: LoginSessionStore
    /// How long a login lasts.
    package let sessionLifetime: Duration
    /// The setup socket, for an administrator's first run from the page (``SetupRoutes``).
    package let setup: SetupSocketClient
    /// When this service started, for `/api/status`.
    let serviceStart = StatusRoute.ServiceStart()

    package init(
        daemon: DaemonLink, board: PanBoard, metrics: WebMetrics, history: HistoryStore?, access: AccessPolicy,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, maxWatchers: Int = 100,
        sessionLifetime: Duration = .seconds(12 * 3600), sessionStore: LoginSessionStore = LoginSessionStore(),
        keeper: HistoryKeeper? = nil, setup: SetupSocketClient = SetupSocketClient()
    ) {
        self.keeper = keeper
        self.setup = setup
        self.sessionLifetime = sessionLifetime
        self.sessionStore = sessionStore
        self.daemon = daemon
        self.board = board
        self.metrics = metrics
        self.history = history
        self.access = access
        self.now = now
        self.maxWatchers = maxWatchers
    }

    /// Every route; the same router answers HTTP requests and WebSocket upgrades.
    package func makeRouter() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        // Outermost, so errors and the host check's 421 carry the headers too.
        router.middlewares.add(SecurityHeaders())
        // Then: a request for a name that is not the scale's gets no further (DNS rebinding).
        router.middlewares.add(HostCheckMiddleware(check: access.hosts))
        // SameSite=Strict: another site's page cannot even send the cookie along.
        let cookie = SessionCookieParameters(name: "plumscale_session", secure: access.cookieSecure, sameSite: .strict)
        router.middlewares.add(
            SessionMiddleware(storage: sessionStore, configuration: .init(sessionCookieParameters: cookie)))
        router.get("/") { _, _ in Self.asset(PageAssets.html, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.asset(PageAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.asset(PageAssets.style, type: "text/css; charset=utf-8") }
        router.get("/api/poll") { _, _ in Self.json(await board.pollJSON(now: now())) }
        router.get("/api/devices") { _, _ in Self.json(await board.devicesJSON()) }
        router.get("/api/status") { [serviceStart] _, _ in
            Self.json(
                await StatusRoute(daemon: daemon, history: history, service: serviceStart, keeper: keeper).json())
        }
        router.get("/api/history") { request, _ in
            guard let history else {
                throw HTTPError(.notFound, message: "history is off: set [web] history to a file to record it")
            }
            return try await HistoryRoute(store: history, keeper: keeper, now: now).response(request)
        }
        router.get("/metrics") { _, _ in
            Self.text(metrics.text(), type: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.ws(
            "/ws",
            shouldUpgrade: { request, _ in
                // A browser sends Origin with every upgrade; another site's page may not watch.
                try access.checkWebSocketOrigin(request)
                guard await board.watcherCount < maxWatchers else {
                    throw HTTPError(
                        .serviceUnavailable,
                        message: "\(maxWatchers) browsers are watching already; close one and reload")
                }
                return .upgrade([:])
            }
        ) { inbound, outbound, _ in
            let (snapshot, frames, id) = await board.subscribe()
            defer { Task { await board.unsubscribe(id) } }
            for frame in snapshot { try await outbound.write(.text(frame)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The page sends nothing; reading notices when it goes away.
                group.addTask { for try await _ in inbound {} }
                group.addTask { for await frame in frames { try await outbound.write(.text(frame)) } }
                try await group.next()
                group.cancelAll()
            }
        }
        ActionRoutes(daemon: daemon, access: access, sessionLifetime: sessionLifetime).add(to: router)
        SetupRoutes(access: access, setup: setup).add(to: router)
        return router
    }

    /// The HTTP server with WebSocket upgrades, and the link to the daemon as a service.
    /// - Parameter idleTimeout: how long a connection may send nothing, half a request
    ///   included, before it is closed.
    package func makeApplication(
        listen host: String, port: Int, services: [any Service],
        logger: Logger, idleTimeout: Duration = .seconds(60)
    ) -> some ApplicationProtocol {
        let router = makeRouter()
        let webSocketResponder = router.buildResponder()
        return Application(
            router: router,
            // A connection that sends nothing for a minute is closed (a WebSocket is kept busy by
            // its pings), so idle or half-open connections do not pile up to LimitNOFILE=; one
            // not answered a minute after it opened (half a request head) too.
            server: HTTPServerBuilder { responder in
                DeadlinedChildChannel(
                    base: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: .init(http1: .init(idleTimeout: TimeAmount(idleTimeout)))),
                    deadline: TimeAmount(idleTimeout))
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "plumscale-web"),
            services: services + [sessionStore],
            logger: logger)
    }

    static func asset(_ body: String, type: String) -> Response {
        var response = text(body, type: type)
        response.headers[.cacheControl] = "no-cache"
        // The page loads nothing from elsewhere; say so, so an injected script cannot either.
        response.headers[.contentSecurityPolicy] =
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
        return response
    }

    static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        text(body, type: "application/json", status: status)
    }

    static func text(_ body: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
