internal import NIOCore
internal import PlumProtocol

/// How a session's request is answered off the event loop: authorization, then the handler.
extension ClientSession {
    static func start(
        _ request: Request, ticket: Int, handler: any RequestHandler, client: ClientInfo,
        authorization: CommandAuthorization, then session: NIOLoopBound<ClientSession>, on eventLoop: any EventLoop
    ) -> Task<Void, Never> {
        Task {
            let answer: Answer
            if request.changesState,
                case .refused(let message) = authorization.decide(client.peer, command: request.name)
            {
                // One line that says what to do; the connection stays usable for reading.
                answer = Answer(replies: [ProtocolError(message).report])
            } else {
                answer = await Self.answer(request, handler: handler, client: client)
            }
            guard !Task.isCancelled else { return }
            eventLoop.execute {
                session.value.finished(request, ticket: ticket, answer: answer)
            }
        }
    }

    /// The reply lines to one request; for an accepted `?WATCH`, what follows its acknowledgement.
    struct Answer: Sendable {
        var replies: [String]
        var watchAccepted = false
    }

    /// Runs off the event loop: the handler may take its time (a tare waits for stability).
    static func answer(_ request: Request, handler: any RequestHandler, client: ClientInfo) async -> Answer {
        if case .watch(let options) = request {
            if let known = await handler.knownSensors() {
                let unknown = options.sensors.filter { !known.contains($0) }
                if !unknown.isEmpty {
                    let list = known.isEmpty ? "none are configured" : "known: " + known.joined(separator: ", ")
                    let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                    return Answer(replies: [ProtocolError("?WATCH: unknown sensor \(names); \(list)").report])
                }
            }
            guard options.enable else { return Answer(replies: [], watchAccepted: true) }
            let current = await handler.watchBegan(sensors: options.sensors).map(\.line)
            return Answer(replies: current, watchAccepted: true)
        }
        // Encoded here, once, by the protocol's one encoder.
        return Answer(replies: await handler.reply(to: request, from: client).map(\.line))
    }
}
