internal import Hummingbird
internal import NIOCore
internal import PlumClient
internal import PlumProtocol

/// `POST /api/setup`: the first run of `plumscale setup` from the page, for a logged-in
/// administrator alone (the login, its CSRF token, the Host and Origin checks of every
/// action). The body is one request of the setup socket's protocol (`{"request":"state"}`,
/// `"probe"`, `"preview"`, `"apply"`), relayed as it is to `plumscale-setup.socket`, whose
/// root service checks it and answers; its reply is the response.
///
/// plumscale-web has no privileges, and setup needs root (it watches GPIO lines, writes
/// /etc/plumscale/plumscale.toml, restarts plumscaled): the socket is the one way between them,
/// and the service behind it checks again that the peer is root or in plumscale-admin.
struct SetupRoutes: Sendable {
    let access: AccessPolicy
    let setup: SetupSocketClient

    /// The largest request relayed: a handful of sensors is a few hundred bytes.
    static let bodyLimit = 65_536

    func add(to router: Router<WebContext>) {
        router.post("/api/setup") { request, context in
            try access.checkAuthorized(request, context)
            let buffer = try await request.body.collect(upTo: Self.bodyLimit)
            let line = try Self.line(String(buffer: buffer))
            let setup = self.setup
            let reply = try await BlockingWork.setup.runIfActive { () -> Result<String, ClientError> in
                Result { () throws(ClientError) -> String in try setup.exchange(line) }
            }
            switch reply {
            case .success(let text):
                return WebService.json(text)
            case .failure(let error):
                context.logger.warning("setup socket: \(error.message)")
                var json = JSONWriter()
                json.add("ok", false)
                json.add("error", error.message)
                return WebService.json(json.finished, status: .serviceUnavailable)
            }
        }
    }

    /// The body as one line: a JSON object, its whitespace newlines made spaces (JSON escapes
    /// a newline inside a string, so none is lost).
    static func line(_ body: String) throws(HTTPError) -> String {
        let line = String(body.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        guard line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("{") else {
            throw HTTPError(
                .badRequest, message: "the body must be a setup request, a JSON object such as {\"request\":\"state\"}")
        }
        return line
    }
}
