internal import Hummingbird
internal import PlumClient
internal import PlumProtocol

/// The daemon's library of named tares ("bowl 212 g"): `GET /api/tares` lists it, for anyone
/// who may read the page, as `?TARES;` is open to any client; `POST /api/tares` saves or deletes
/// one after login, with the body `?TARES` takes: `{"save":"bowl","sensor":"left"}` keeps the
/// pan's tare in use, `{"save":"bowl","grams":212}` a known weight, `{"delete":"bowl"}`.
///
/// A named tare is put into use with `POST /api/tare` and `{"sensor":"left","name":"bowl"}`.
/// Every browser hears of a change as a `tares` frame (``PanBoard``), whoever made it: the CLI,
/// Home Assistant or another browser.
struct TareLibraryRoutes: Sendable {
    let daemon: DaemonLink
    let access: AccessPolicy

    func add(to router: Router<WebContext>) {
        router.get("/api/tares") { _, _ in
            try await ActionRoutes.command { try await BrowserFrame.tares(daemon.tares(.list)) }
        }
        router.post("/api/tares") { request, context in
            try access.checkAuthorized(request, context)
            let change: TareLibraryRequest
            do {
                change = try await request.decode(as: TareLibraryRequest.self, context: context)
            } catch let error as DecodingError {
                throw HTTPError(.badRequest, message: "the named tare: \(Self.describe(error))")
            }
            guard change != .list else {
                throw HTTPError(
                    .badRequest,
                    message: "say what to change: {\"save\":NAME,\"sensor\":PAN}, {\"save\":NAME,\"grams\":G} "
                        + "or {\"delete\":NAME}; GET /api/tares lists them")
            }
            return try await ActionRoutes.command { try await BrowserFrame.tares(daemon.tares(change)) }
        }
    }

    /// The decoder's own words for what was wrong (the library's rules are in them).
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            context.debugDescription
        @unknown default:
            "\(error)"
        }
    }
}
