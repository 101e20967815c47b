internal import Logging
internal import NIOCore
internal import PlumProtocol

/// One MT-SICS connection: CR LF framed commands, answered in order; `ES` for a command this
/// balance does not know; `SIR` streams until `@`.
///
/// Every method runs on the channel's event loop.
final class MTSICSSession: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// MT-SICS commands are a few characters; anything this long is not one.
    static let maximumLineLength = 256
    /// Commands that may wait for an answer before the session stops reading.
    private static let backlogLimit = 16
    /// Commands already read when reading stopped are still parsed; a client that piles up
    /// this many is flooding and is closed.
    private static let floodLimit = 1024

    private let handler: any MTSICSHandler
    private let client: ClientInfo
    private let authorization: CommandAuthorization
    private let logger: Logger
    private var context: ChannelHandlerContext?
    /// Parsed commands (nil: not MT-SICS), answered in order.
    private var commands = OrderedCommandQueue<MTSICSCommand?>()
    private var streaming: Task<Void, Never>?
    private var readHeld = false
    private var refusalLogged = false

    init(handler: any MTSICSHandler, client: ClientInfo, authorization: CommandAuthorization, logger: Logger) {
        self.handler = handler
        self.client = client
        self.authorization = authorization
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopStreaming()
        commands.cancelAll()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopStreaming()
        commands.cancelAll()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var text = String(buffer: unwrapInboundIn(data))
        while text.last == "\r" || text.last == " " { text.removeLast() }
        if text.isEmpty { return }
        let command = MTSICSCommand.parse(Substring(text))
        if command == .reset {
            // `@` cancels whatever is running or waiting, as on a balance.
            stopStreaming()
            commands.cancelAll()
        }
        if commands.count >= Self.floodLimit {
            // A client that floods without reading; answering would only queue more.
            context.close(promise: nil)
            return
        }
        commands.append(command)
        processNext()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is LineTooLong {
            // The framing is lost: answer the syntax error and hang up.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: MTSICSResponse.syntaxError))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        context.close(promise: nil)
    }

    /// Holds reading while commands wait or the socket is full, so a client that sends and
    /// never reads cannot grow the daemon's memory.
    func read(context: ChannelHandlerContext) {
        if commands.count >= Self.backlogLimit || !context.channel.isWritable {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        resumeReading()
        context.fireChannelWritabilityChanged()
    }

    private func resumeReading() {
        guard readHeld, let context, commands.count < Self.backlogLimit, context.channel.isWritable else { return }
        readHeld = false
        context.read()
    }

    /// Answers `ES` itself and starts the next handler call; a loop, not recursion, since one
    /// read may carry many lines.
    private func processNext() {
        while let context, let next = commands.next() {
            guard let command = next else {
                write(MTSICSResponse.syntaxError)
                continue
            }
            if command != .reset { stopStreaming() }
            if command.changesState,
                case .refused(let message) = authorization.decide(client.peer, command: "MT-SICS \(command.identifier)")
            {
                // MT-SICS has no place for a reason: the client gets EL (logical error, the
                // command cannot be carried out) and the log says why.
                if !refusalLogged {
                    // Once per connection: a client retrying in a loop must not flood the log.
                    refusalLogged = true
                    logger.notice("\(client.listener) #\(client.id): \(message)")
                }
                write(MTSICSResponse.logicalError)
                continue
            }
            let session = NIOLoopBound(self, eventLoop: context.eventLoop)
            commands.start { ticket in
                Self.start(
                    command, ticket: ticket, handler: handler, client: client, then: session, on: context.eventLoop)
            }
        }
        resumeReading()
    }

    private static func start(
        _ command: MTSICSCommand, ticket: Int, handler: any MTSICSHandler, client: ClientInfo,
        then session: NIOLoopBound<MTSICSSession>, on eventLoop: any EventLoop
    ) -> Task<Void, Never> {
        Task {
            let response = await handler.respond(to: command, from: client)
            guard !Task.isCancelled else { return }
            eventLoop.execute {
                session.value.finished(command, ticket: ticket, response: response)
            }
        }
    }

    private func finished(_ command: MTSICSCommand, ticket: Int, response: String) {
        guard context != nil, commands.finish(ticket) else { return }
        write(response)
        if command == .immediateWeightRepeat, let context {
            let session = NIOLoopBound(self, eventLoop: context.eventLoop)
            streaming = Self.stream(handler.repeatedWeights(), to: session, on: context.eventLoop)
        }
        processNext()
    }

    private static func stream(
        _ weights: AsyncStream<String>, to session: NIOLoopBound<MTSICSSession>, on eventLoop: any EventLoop
    ) -> Task<Void, Never> {
        Task {
            for await line in weights {
                if Task.isCancelled { return }
                eventLoop.execute { session.value.writeRepeated(line) }
            }
        }
    }

    /// A repeated weight; dropped while the socket is full, since the next reading supersedes it.
    private func writeRepeated(_ line: String) {
        guard streaming != nil, let context, context.channel.isWritable else { return }
        write(line)
    }

    private func write(_ text: String) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    private func stopStreaming() {
        streaming?.cancel()
        streaming = nil
    }
}
