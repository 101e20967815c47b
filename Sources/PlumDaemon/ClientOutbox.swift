import NIOCore
import Synchronization

/// One client's bounded outgoing queue: the meeting point of the producer (any thread, never
/// waiting) and the client's event loop (writing while the channel is writable).
///
/// Reports that do not fit push out the oldest; the number lost is sent to the client in-band
/// before the next report it gets. Replies to the client's own requests have their own lane,
/// which is never dropped from: its length is bounded by the session, which stops reading
/// requests while replies pile up.
final class ClientOutbox: Sendable {
    struct State {
        var subscription = Subscription()
        var reports = CircularBuffer<ByteBuffer>()
        var replies = CircularBuffer<ByteBuffer>()
        /// Reports pushed out since the client last got some.
        var dropped = 0
        /// A drain is scheduled on the event loop or waiting for writability; producers need
        /// not schedule another.
        var drainPending = false
        /// When the report queue last became full without the client taking anything since.
        var fullSince: NIODeadline?
        var closed = false
    }

    /// What the producer must do after queueing, outside the lock.
    enum Offer {
        case nothing
        case drain
        /// The queue just became full; check again after the stall timeout.
        case armStallTimer(NIODeadline)
        case drainAndArmStallTimer(NIODeadline)
    }

    /// What the event loop takes to write.
    struct Batch {
        var replies: [ByteBuffer] = []
        var dropped = 0
        var reports: [ByteBuffer] = []
        var binary = false
        var isEmpty: Bool { replies.isEmpty && dropped == 0 && reports.isEmpty }
    }

    let id: Int
    let capacity: Int
    let eventLoop: any EventLoop
    private let state = Mutex(State())

    init(id: Int, capacity: Int, eventLoop: any EventLoop) {
        self.id = id
        self.capacity = max(1, capacity)
        self.eventLoop = eventLoop
    }

    var subscription: Subscription {
        get { state.withLock { $0.subscription } }
    }

    /// Replaces the subscription; reports queued under the old one are discarded, so that a
    /// client switching to binary frames gets no JSON report after the acknowledgement.
    func subscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.subscription = subscription
            state.reports.removeAll()
            state.dropped = 0
            state.fullSince = nil
        }
    }

    /// Queues `publication` if the client subscribed to it; never blocks beyond the lock.
    func offer(_ publication: Publication, now: NIODeadline) -> Offer {
        state.withLock { state in
            guard !state.closed, let bytes = state.subscription.select(publication) else { return .nothing }
            var stalled: NIODeadline?
            if state.reports.count >= capacity {
                state.reports.removeFirst()
                state.dropped += 1
                if state.fullSince == nil {
                    state.fullSince = now
                    stalled = now
                }
            }
            state.reports.append(bytes)
            let drain = !state.drainPending
            state.drainPending = true
            switch (drain, stalled) {
            case (false, nil): return .nothing
            case (true, nil): return .drain
            case (false, let since?): return .armStallTimer(since)
            case (true, let since?): return .drainAndArmStallTimer(since)
            }
        }
    }

    /// Queues a reply for the client; true when a drain must be scheduled.
    func reply(_ bytes: ByteBuffer) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.replies.append(bytes)
            defer { state.drainPending = true }
            return !state.drainPending
        }
    }

    var replyBacklog: Int { state.withLock { $0.replies.count } }

    /// Takes up to `limit` messages; an empty batch ends the pending drain.
    func take(limit: Int) -> Batch {
        state.withLock { state in
            var batch = Batch()
            batch.binary = state.subscription.binary
            while batch.replies.count < limit, let reply = state.replies.popFirst() {
                batch.replies.append(reply)
            }
            while batch.replies.count + batch.reports.count < limit, let report = state.reports.popFirst() {
                batch.reports.append(report)
            }
            if !batch.reports.isEmpty || state.reports.isEmpty {
                // The client took something (or there is nothing to take): it is not stuck.
                state.fullSince = nil
            }
            if !batch.reports.isEmpty {
                batch.dropped = state.dropped
                state.dropped = 0
            }
            if batch.isEmpty { state.drainPending = false }
            return batch
        }
    }

    /// True when the queue has stayed full since `since`, with nothing taken.
    func isStalled(since: NIODeadline) -> Bool {
        state.withLock { $0.fullSince == since && !$0.closed }
    }

    /// Stops queueing; later offers are ignored.
    func close() {
        state.withLock { state in
            state.closed = true
            state.reports.removeAll()
            state.replies.removeAll()
        }
    }
}
