internal import Hummingbird
internal import PlumClient
internal import PlumProtocol

/// The daemon's weighing sessions (docs/items.md) over HTTP. `/api/session` is the *login*
/// session, so these live under `/api/weighing/`:
///
/// - `GET /api/weighing/session[?name=N]`: the running session, else the latest stopped one (or
///   the one named), with its items: the daemon's `SESSION` reply to `show`.
/// - `GET /api/weighing/sessions`: every kept session's figures (`list`).
/// - `GET /api/weighing/session.csv[?name=N]`: its items as CSV, the columns of
///   `plumscale session export --csv` (``SessionCSV``).
/// - `POST /api/weighing/session` with `{"action":"start","name":"crate-12"}` (and optionally
///   `"sensor"`) or `{"action":"stop"}`, after login, as `POST /api/tare`.
///
/// Reading is open to anyone who may see the page, as `?SESSION` show and list are open to any
/// client of the daemon; starting and stopping need the login and CSRF token, as taring does.
/// Each is the daemon's own `?SESSION`, so the page, the CLI and scripts get the same refusals,
/// in the daemon's words: a refusal to show is a 404, to start or stop a 409, a request the
/// daemon rejects as malformed a 400, each with `"ok":false` and the daemon's message.
package struct WeighingSessionRoutes: Sendable {
    let daemon: DaemonLink
    let access: AccessPolicy

    func add(to router: Router<WebContext>) {
        router.get("/api/weighing/session") { request, _ in
            let show = SessionRequest(action: .show, name: Self.name(request))
            return try await ActionRoutes.respond {
                let reply = try await daemon.session(show)
                return WebService.json(Report.session(reply).object.finished, status: reply.ok ? .ok : .notFound)
            }
        }
        router.get("/api/weighing/sessions") { _, _ in
            try await ActionRoutes.respond {
                WebService.json(Report.session(try await daemon.session(SessionRequest(action: .list))).object.finished)
            }
        }
        router.get("/api/weighing/session.csv") { request, _ in
            let show = SessionRequest(action: .show, name: Self.name(request))
            return try await ActionRoutes.respond {
                let reply = try await daemon.session(show)
                guard reply.ok, let session = reply.sessions.first else {
                    return WebService.json(Report.session(reply).object.finished, status: .notFound)
                }
                var response = WebService.text(SessionCSV.text(session), type: "text/csv; charset=utf-8")
                response.headers[.contentDisposition] = "attachment; filename=\"\(Self.fileName(session.name)).csv\""
                return response
            }
        }
        router.post("/api/weighing/session") { request, context in
            try access.checkAuthorized(request, context)
            let change: SessionRequest
            do {
                change = try Self.change(try await request.decode(as: ChangeBody.self, context: context))
            } catch let error as DecodingError {
                throw HTTPError(.badRequest, message: "the session change: \(TareLibraryRoutes.describe(error))")
            }
            return try await ActionRoutes.respond {
                let reply = try await daemon.session(change)
                return WebService.json(Report.session(reply).object.finished, status: reply.ok ? .ok : .conflict)
            }
        }
    }

    /// `{"action":"start","name":…,"sensor":…}` or `{"action":"stop"}`.
    private struct ChangeBody: Decodable {
        var action: String
        var name: String?
        var sensor: String?
    }

    /// The body as the daemon's request; what cannot be one is refused here, saying what is.
    private static func change(_ body: ChangeBody) throws(HTTPError) -> SessionRequest {
        switch body.action {
        case "start":
            guard let name = body.name?.trimmingWhitespace, !name.isEmpty else {
                throw HTTPError(
                    .badRequest, message: "a session needs a name: {\"action\":\"start\",\"name\":\"crate-12\"}")
            }
            return SessionRequest(action: .start, name: name, sensor: body.sensor)
        case "stop":
            // The daemon refuses a name or sensor with stop (only one session runs): its words.
            return SessionRequest(action: .stop, name: body.name, sensor: body.sensor)
        default:
            throw HTTPError(
                .badRequest,
                message: "action \"\(body.action)\": POST takes \"start\" (with \"name\") or \"stop\"; "
                    + "GET /api/weighing/session shows one, GET /api/weighing/sessions lists them")
        }
    }

    /// `?name=`, when given and not empty.
    private static func name(_ request: Request) -> String? {
        request.uri.queryParameters.get("name").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A session name as a file name: letters, digits, `.`, `-` and `_` kept, anything else
    /// (a quote, a slash) an `_`, so the header stays one safe token.
    package static func fileName(_ name: String) -> String {
        let kept = name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" }
        let text = String(kept).trimmingPrefix { $0 == "." }
        return text.isEmpty ? "session" : String(text)
    }
}

extension String {
    /// Without leading and trailing blanks.
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
