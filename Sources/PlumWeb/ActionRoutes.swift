internal import Hummingbird
internal import HummingbirdAuth
internal import PlumClient
internal import PlumProtocol

/// The routes that log in and change the scale: `POST /api/login`, `/api/logout`,
/// `/api/tare` (also a named or preset tare), `/api/zero`, `/api/calibrate`, and
/// `GET /api/session` (the login); the named tares' library is ``TareLibraryRoutes``, the
/// weighing sessions ``WeighingSessionRoutes``.
///
/// Each action is the daemon's own request (`?TARE`, `?ZERO`, `?CALIBRATE`), sent through the
/// client library, so the web and the CLI take the same steps and get the same refusals.
struct ActionRoutes: Sendable {
    let daemon: DaemonLink
    let access: AccessPolicy
    /// How long a login lasts (12 hours in service).
    let sessionLifetime: Duration

    func add(to router: Router<WebContext>) {
        router.get("/api/session") { request, context in
            var json = JSONWriter()
            let session = context.sessions.session.flatMap { access.isCurrent($0) ? $0 : nil }
            json.add("logged_in", session != nil)
            if let session { json.add("csrf", session.csrf) }
            json.add("may_log_in", !(access.lanReadOnly && !access.clientIsLocal(request, context)))
            return WebService.json(json.finished)
        }
        router.post("/api/login") { request, context in
            try access.checkSameOrigin(request, context)
            let body = try await request.decode(as: LoginBody.self, context: context)
            let peer = access.client(request, context)
            if case .refused(let seconds) = access.throttle.admit(peer) {
                throw HTTPError(
                    .tooManyRequests, headers: [.retryAfter: "\(seconds)"],
                    message: "too many wrong passwords; try again in \(seconds) s")
            }
            let matches: Bool
            do {
                matches = try await access.verify(body.password)
            } catch let error as WebError {
                access.throttle.withdraw(peer)
                throw HTTPError(.serviceUnavailable, message: error.message)
            }
            let startedBackoff = access.throttle.finish(peer, succeeded: matches)
            guard matches else {
                // fail2ban and the administrator read this line: it names the peer.
                context.logger.warning("wrong web password from \(peer)")
                if startedBackoff {
                    let seconds = Int(access.throttle.backoffSeconds)
                    context.logger.warning(
                        "too many wrong web passwords (last from \(peer)); refusing for \(seconds) s")
                }
                throw HTTPError(.unauthorized, message: "wrong password")
            }
            let token = AccessPolicy.newToken()
            // This login ends every earlier session (another browser's, or a stolen cookie).
            let hash = (try? access.passwords.hash()) ?? ""
            let session = WebSession(csrf: token, epoch: access.epoch.next(), passwordTag: AccessPolicy.tag(hash))
            context.sessions.createSession(session, expiresIn: sessionLifetime)
            var json = JSONWriter()
            json.add("logged_in", true)
            json.add("csrf", token)
            return WebService.json(json.finished)
        }
        router.post("/api/logout") { request, context in
            // With the session's token, so another site cannot log the user out either.
            try access.checkSameOrigin(request, context)
            if context.sessions.session != nil { try access.checkAuthorized(request, context) }
            context.sessions.clearSession()
            return WebService.json("{\"logged_in\":false}")
        }
        router.post("/api/tare") { request, context in
            try access.checkAuthorized(request, context)
            let body = try await request.decode(as: TareBody.self, context: context)
            switch (body.name, body.grams) {
            case (nil, nil):
                return try await Self.command { try await BrowserFrame.command(daemon.tare(sensor: body.sensor)) }
            case (let name?, nil):
                return try await Self.command {
                    try await BrowserFrame.command(daemon.useTare(name, sensor: body.sensor))
                }
            case (nil, let grams?):
                return try await Self.command {
                    try await BrowserFrame.command(daemon.presetTare(sensor: body.sensor, grams: grams))
                }
            case (.some, .some):
                throw HTTPError(
                    .badRequest, message: "a tare takes \"name\" (a named tare) or \"grams\" (a preset tare), not both")
            }
        }
        TareLibraryRoutes(daemon: daemon, access: access).add(to: router)
        WeighingSessionRoutes(daemon: daemon, access: access).add(to: router)
        router.post("/api/zero") { request, context in
            try access.checkAuthorized(request, context)
            let body = try await request.decode(as: SensorBody.self, context: context)
            return try await Self.command { try await BrowserFrame.command(daemon.zero(sensor: body.sensor)) }
        }
        router.post("/api/calibrate") { request, context in
            try access.checkAuthorized(request, context)
            let body = try await request.decode(as: CalibrateBody.self, context: context)
            guard let step = CalibrationRequest.Step(rawValue: body.step) else {
                throw HTTPError(
                    .badRequest, message: "step must be begin, zero, point, fit, commit, cancel or rollback")
            }
            if step == .point, !(body.grams.map { $0 > 0 && $0.isFinite } ?? false) {
                throw HTTPError(.badRequest, message: "a point needs the known weight in grams, more than 0")
            }
            let grams = step == .point ? body.grams : nil
            let request = CalibrationRequest(sensor: body.sensor, step: step, grams: grams)
            return try await Self.command { try await BrowserFrame.calibration(daemon.calibrate(request)) }
        }
    }

    /// Sends a request and passes the daemon's reply on as the page's JSON; a refusal is still
    /// a 200 with `"ok":false` and the daemon's message, an `ERROR` is a 400.
    static func command(_ send: () async throws -> String) async throws -> Response {
        try await respond { WebService.json(try await send()) }
    }

    /// Makes a response from the daemon's reply; a daemon that refuses the request as malformed
    /// is a 400 with its message, one that cannot be reached a 503.
    static func respond(_ send: () async throws -> Response) async throws -> Response {
        do {
            return try await send()
        } catch let error as ClientError where error.code == .daemonError || error.code == .unknownSensor {
            // The daemon refused the request (an unknown sensor, a malformed step): the link is fine.
            return WebService.json(BrowserFrame.failure(error.message), status: .badRequest)
        } catch {
            throw HTTPError(.serviceUnavailable, message: "plumscaled is not reachable: \(error)")
        }
    }

    private struct LoginBody: Decodable { var password: String }
    private struct SensorBody: Decodable { var sensor: String }
    /// `{"sensor":"left"}` tares what is on the pan; with `name` a named tare, with `grams` a
    /// preset tare (0 clears it), as `?TARE` takes them.
    private struct TareBody: Decodable {
        var sensor: String
        var name: String?
        var grams: Double?
    }
    private struct CalibrateBody: Decodable {
        var sensor: String
        var step: String
        var grams: Double?
    }
}
