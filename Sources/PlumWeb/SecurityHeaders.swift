internal import HTTPTypes
internal import Hummingbird

/// Headers every answer carries, errors included, so a browser treats each one as safely as
/// the page: no sniffing a JSON answer into a script, no framing, no Referer with the
/// scale's address sent elsewhere, and nothing from `/api/` kept in a cache (the login's CSRF
/// token and the session's state would otherwise stay on disk).
struct SecurityHeaders: RouterMiddleware {
    typealias Context = WebContext

    /// For answers that set none: nothing may be loaded, run or framed. The page's assets set
    /// their own, which allows what the page needs from itself.
    static let defaultPolicy = "default-src 'none'; frame-ancestors 'none'"

    func handle(
        _ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.defaultPolicy
        }
        if request.uri.path.hasPrefix("/api/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
