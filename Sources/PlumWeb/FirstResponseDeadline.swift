internal import Hummingbird
import HummingbirdCore
internal import HummingbirdWebSocket
internal import Logging
internal import NIOCore

/// Closes a connection the server has not answered within `deadline` of its opening: a client
/// that sends half a request and then nothing (slowloris) would otherwise keep its descriptor
/// for ever, and enough of them reach `LimitNOFILE=`.
///
/// Hummingbird's idle time-out (`http1.idleTimeout`) does not cover this with WebSocket
/// upgrades: the handler that enforces it joins the pipeline only once a whole request head has
/// come and the server has decided not to upgrade. From the first answer on that handler (or,
/// after an upgrade, the WebSocket's own) is there, so this one leaves at the first byte the
/// server writes. It sits first in the pipeline, nearest the socket, so it sees every write.
final class FirstResponseDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) { self.deadline = deadline }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        timer?.cancel()
        timer = nil
        context.write(data, promise: promise)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) { bound.value.close(promise: nil) }
    }
}

@available(*, unavailable)
extension FirstResponseDeadline: Sendable {}

/// Hummingbird's HTTP/1 channel with WebSocket upgrades, with ``FirstResponseDeadline`` in front.
struct DeadlinedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let deadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadline = self.deadline
        return channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(FirstResponseDeadline(deadline: deadline), position: .first)
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
