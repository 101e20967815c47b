internal import NIOCore
internal import PlumProtocol

/// One JSON-protocol client on its event loop: greets it, reads its requests one line at a
/// time, answers them in order, and writes its queued reports while the socket is writable.
///
/// Every method runs on the channel's event loop.
final class ClientSession: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// This client's queue stayed full for the stall timeout.
    struct StalledEvent {}

    /// Messages written per pass before giving other channels on the loop their turn.
    private static let batchLimit = 64
    /// Requests and unsent replies that may pile up before the session stops reading.
    private static let backlogLimit = 16
    /// Lines already read when reading stopped are still parsed (one read may hold many); a
    /// client that piles up this many unanswered is flooding and is closed.
    private static let floodLimit = 1024

    private enum Pending {
        case request(Request)
        case refused(ProtocolError)
    }

    private let hub: ClientHub
    private let handler: any RequestHandler
    private let listener: String
    private let peer: PeerCredentials?
    private let authorization: CommandAuthorization
    private var outbox: ClientOutbox?
    private var context: ChannelHandlerContext?
    /// Requests (or their refusals), answered in order.
    private var commands = OrderedCommandQueue<Pending>()
    private var readHeld = false
    /// The messages of one pass, kept between passes so that a report costs no allocation here.
    /// Only `drain()` touches it, on the event loop, and a drain that a flush starts runs after
    /// the outer one is done with it; the runtime's exclusivity check, about 250 instructions a
    /// report, would never fire (docs/PERFORMANCE.md, section 3).
    @exclusivity(unchecked) private var batch = ClientOutbox.Batch()
    private var inputClosed = false
    /// Writes straight to the client's socket while NIO holds nothing for it. Only `write(_:)`
    /// and NIO's completions touch it, each on the event loop and never inside the other, so
    /// the runtime's exclusivity check would never fire (as for `batch`).
    @exclusivity(unchecked) private var writer: DirectWriter
    /// The peer may change the scale: it may take a reserved slot and is never closed as idle.
    private let mayChangeState: Bool
    /// When the client last sent a request (or connected), for the idle timeout.
    private var lastRequest = NIODeadline.now()
    private var idleTimer: Scheduled<Void>?

    /// - Parameter descriptor: the connection's socket, which NIO owns; the session writes to it
    ///   directly, on the event loop, and never closes it. Pass -1 to write through NIO only.
    init(
        hub: ClientHub, handler: any RequestHandler, listener: String, peer: PeerCredentials?,
        authorization: CommandAuthorization, descriptor: CInt = -1
    ) {
        self.writer = DirectWriter(descriptor: descriptor)
        self.hub = hub
        self.handler = handler
        self.listener = listener
        self.peer = peer
        self.authorization = authorization
        self.mayChangeState = authorization.mayChangeState(peer)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        guard
            let outbox = hub.register(
                channel: context.channel, session: NIOLoopBound(self, eventLoop: context.eventLoop),
                reserved: mayChangeState)
        else {
            let refusal = ProtocolError(hub.configuration.refusal(reserved: mayChangeState)).report
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: refusal))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        self.outbox = outbox
        queueReply(hub.versionReport)
        lastRequest = .now()
        armIdleTimer()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
        self.context = nil
    }

    private func release() {
        writer.stop()
        let closed = outbox.map { ClientInfo(id: $0.id, listener: listener, peer: peer) }
        if let outbox {
            hub.unregister(outbox)
            self.outbox = nil
        }
        // The client is gone: the request in flight is cancelled, as MT-SICS does.
        commands.cancelAll()
        idleTimer?.cancel()
        idleTimer = nil
        // After the cancellation, so an announcement still in flight is not kept after it.
        if let closed { handler.clientClosed(closed) }
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let outbox else { return }
        if commands.count + outbox.replyBacklog >= Self.floodLimit {
            refuseAndClose(
                context,
                ProtocolError(
                    "more than \(Self.floodLimit) requests without reading the replies; read the replies before "
                        + "sending more"
                ))
            return
        }
        let line = unwrapInboundIn(data)
        let text = String(buffer: line)
        if text.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) { return }
        lastRequest = .now()
        armIdleTimer()
        do {
            commands.append(.request(try Request.parse(Substring(text))))
        } catch {
            commands.append(.refused(error))
        }
        processNext()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tooLong = error as? LineTooLong {
            // The rest of the line is unread, so the framing is lost: say why, then close.
            refuseAndClose(
                context,
                ProtocolError(
                    "request longer than \(tooLong.limit) bytes; closing the connection because the rest of the line "
                        + "cannot be skipped safely"
                ))
            return
        }
        // A reset or a broken pipe: this client is gone; the others are not affected.
        context.close(promise: nil)
    }

    /// Sends `error` right away, after what was already written, and closes the connection.
    private func refuseAndClose(_ context: ChannelHandlerContext, _ error: ProtocolError) {
        if let outbox {
            hub.unregister(outbox)
            self.outbox = nil
        }
        commands.cancelAll()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: error.report))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is StalledEvent:
            stall()
        case let event as ChannelEvent where event == .inputClosed:
            inputClosed = true
            closeIfFinished()
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Answers what the session can answer itself and starts the next handler call; a loop,
    /// not recursion, since one read may carry thousands of lines.
    private func processNext() {
        while let outbox, let next = commands.next() {
            switch next {
            case .refused(let error):
                queueReply(error.report)
            case .request(.version):
                queueReply(hub.versionReport)
            case .request(let request):
                let client = ClientInfo(id: outbox.id, listener: listener, peer: peer)
                let session = NIOLoopBound(self, eventLoop: outbox.eventLoop)
                commands.start { ticket in
                    Self.start(
                        request, ticket: ticket, handler: handler, client: client, authorization: authorization,
                        then: session, on: outbox.eventLoop)
                }
            }
        }
        updateReading()
        closeIfFinished()
    }

    func finished(_ request: Request, ticket: Int, answer: Answer) {
        guard commands.finish(ticket), let outbox else { return }
        if case .watch(let options) = request, answer.watchAccepted {
            // The subscription, its acknowledgement and the states that follow it (the alerts
            // now) enter the client's queue together: a reading published by a sampler thread in
            // between would otherwise reach the client ahead of them (or, the other way round, be
            // lost after the acknowledgement). A binary watcher reads 10-byte frames only, so it
            // gets the acknowledgement alone.
            let subscription = Subscription(options)
            var answerLines = subscription.report
            if !subscription.binary {
                for reply in answer.replies { answerLines += reply.hasSuffix("\n") ? reply : reply + "\n" }
            }
            if outbox.subscribe(subscription, acknowledgement: ByteBuffer(string: answerLines)) { drain() }
        } else {
            for reply in answer.replies {
                queueReply(reply.hasSuffix("\n") ? reply : reply + "\n")
            }
        }
        processNext()
    }

    /// Queues a reply line. A client in binary mode reads 10-byte frames only, so JSON lines
    /// would corrupt its framing: it is sent only the acknowledgement of its `?WATCH`.
    private func queueReply(_ line: String, evenInBinaryMode: Bool = false) {
        guard let outbox else { return }
        if !evenInBinaryMode, outbox.subscription.binary { return }
        if outbox.reply(ByteBuffer(string: line)) { drain() }
    }

    /// Holds reading while requests or replies pile up, so a client that sends requests and
    /// never reads the answers cannot grow memory.
    private func updateReading() {
        // Asked after every drain: the backlog (a lock on the outbox) only when reading is held.
        guard readHeld, let context else { return }
        if commands.count + (outbox?.replyBacklog ?? 0) < Self.backlogLimit {
            readHeld = false
            context.read()
        }
    }

    func read(context: ChannelHandlerContext) {
        let backlog = commands.count + (outbox?.replyBacklog ?? 0)
        if backlog >= Self.backlogLimit {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// A client that half-closed after its requests is closed once they are answered, unless it
    /// is watching.
    private func closeIfFinished() {
        guard inputClosed, commands.isIdle, let outbox, let context else { return }
        guard !outbox.subscription.watching, outbox.replyBacklog == 0 else { return }
        context.close(mode: .all, promise: nil)
    }

    // MARK: Writing

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { drain() }
        context.fireChannelWritabilityChanged()
    }

    /// The hub has queued reports for this client (called on its loop).
    func reportsQueued() {
        drain()
    }

    /// Writes queued messages while the channel is writable. Stops when NIO's buffer passes
    /// the high water mark, leaving the rest in the bounded queue: memory per client is bounded
    /// by the water mark plus the queue.
    private func drain() {
        guard let context, let outbox else { return }
        var handedOver = false
        // With nothing in NIO's buffer the channel is writable; asking costs a retain and a
        // lookup per pass.
        while writer.queuedInNIO == 0 || context.channel.isWritable {
            outbox.take(limit: Self.batchLimit, into: &batch)
            if batch.dropped > 0, !batch.binary {
                let overflow = Report.overflow(dropped: batch.dropped).line
                handedOver = write(ByteBuffer(string: overflow), context: context) || handedOver
            }
            for message in batch.messages {
                handedOver = write(message, context: context) || handedOver
            }
            // Emptied one by one (usually one): removeAll(keepingCapacity:) costs 160 instructions.
            while batch.messages.popLast() != nil {}
            if batch.exhausted { break }
        }
        if handedOver { context.flush() }
        updateReading()
        closeIfFinished()
    }

    /// Writes `message` through the ``DirectWriter`` when it can, and what the socket did not
    /// take through NIO. Returns whether NIO was handed something to flush.
    private func write(_ message: ByteBuffer, context: ChannelHandlerContext) -> Bool {
        var message = message
        switch message.withUnsafeReadableBytes({ writer.write($0) }) {
        case .complete:
            return false
        case .partial(let sent):
            message.moveReaderIndex(forwardBy: sent)
        case .wouldBlock, .failed, .deferred:
            break
        }
        writer.handedToNIO()
        let promise = context.eventLoop.makePromise(of: Void.self)
        let session = NIOLoopBound(self, eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { result in
            if case .failure = result {
                session.value.writer.finishedInNIO(failed: true)
            } else {
                session.value.writer.finishedInNIO(failed: false)
            }
        }
        context.write(wrapOutboundOut(message), promise: promise)
        return true
    }

    // MARK: Idle clients

    /// Schedules the idle check for a peer that may not change the scale, unless one is due.
    private func armIdleTimer(at deadline: NIODeadline? = nil) {
        guard !mayChangeState, idleTimer == nil, let timeout = hub.configuration.idleTimeout, timeout > .zero,
            let context
        else { return }
        let session = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(deadline: deadline ?? lastRequest + TimeAmount(timeout)) {
            session.value.idleCheck(timeout)
        }
    }

    /// Closes the client, saying why, when it is not watching, waits for no answer and has sent
    /// nothing for `timeout`: one local user's idle connections must not fill the daemon's
    /// slots. A watcher is left alone until it stops watching (a request, which re-arms this).
    private func idleCheck(_ timeout: Duration) {
        idleTimer = nil
        guard let context, let outbox, !outbox.subscription.watching else { return }
        let now = NIODeadline.now()
        if !commands.isIdle { lastRequest = now }
        if lastRequest + TimeAmount(timeout) > now {
            armIdleTimer()
            return
        }
        let seconds = timeout.components.seconds
        refuseAndClose(
            context,
            ProtocolError(
                "closing an idle connection: no request and no ?WATCH for \(seconds) s; send requests more often, "
                    + "watch with ?WATCH={\"enable\":true};, or connect again when needed"))
    }

    private func stall() {
        guard let context, let outbox else { return }
        // Stuck: nothing taken for the whole stall timeout. Nothing more can reach it in order,
        // so close without a goodbye (it would sit behind the unread reports anyway).
        hub.unregister(outbox)
        self.outbox = nil
        context.close(promise: nil)
    }
}
