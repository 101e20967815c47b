internal import NIOCore
internal import Synchronization

/// One client's bounded outgoing queue: the meeting point of the producer (any thread, never
/// waiting) and the client's event loop (writing while the channel is writable).
///
/// Reports and replies share one first-in-first-out queue, so a client sees them in the order
/// they happened. Reports that do not fit push out the oldest report; the number lost is sent
/// to the client in-band before the next messages it gets. Replies are never dropped: their
/// number is bounded by the session, which stops reading requests while replies pile up.
final class ClientOutbox: Sendable {
    struct Entry {
        var bytes: ByteBuffer
        var isReport: Bool
    }

    struct State {
        var subscription = Subscription()
        var queue = CircularBuffer<Entry>()
        var reportCount = 0
        /// Reports pushed out since the client last got some.
        var dropped = 0
        /// A drain is scheduled on the event loop or waiting for writability; producers need
        /// not schedule another.
        var drainPending = false
        /// When the report queue last became full without the client taking anything since.
        var fullSince: NIODeadline?
        var closed = false
        /// For a changes-only subscription: what each sensor's last report sent showed, and when.
        var lastShown: [String: (shown: Int, at: NIODeadline)] = [:]
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
        /// Reports lost before these messages.
        var dropped = 0
        var messages: [ByteBuffer] = []
        var binary = false
        /// The queue is empty after this batch and the pending drain has ended: the next
        /// offer schedules a new one.
        var exhausted = false
        var isEmpty: Bool { dropped == 0 && messages.isEmpty }
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
        state.withLock { $0.subscription }
    }

    /// Replaces the subscription and queues its acknowledgement, in one step under the lock:
    /// a report published before it is not sent (reports queued under the old subscription are
    /// discarded, so a client switching to binary frames gets no JSON report after the
    /// acknowledgement), and one published after it comes after the acknowledgement, never
    /// ahead of it and never lost. `acknowledgement` holds the `WATCH` line and the state lines
    /// that go with it (the alerts), which no reading may split.
    /// - Returns: true when a drain must be scheduled.
    func subscribe(_ subscription: Subscription, acknowledgement: ByteBuffer) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.subscription = subscription
            state.lastShown.removeAll()
            state.queue.removeAll { $0.isReport }
            state.reportCount = 0
            state.dropped = 0
            state.fullSince = nil
            state.queue.append(Entry(bytes: acknowledgement, isReport: false))
            defer { state.drainPending = true }
            return !state.drainPending
        }
    }

    /// Queues `publication` if the client subscribed to it; never blocks beyond the lock.
    func offer(_ publication: Publication, now: NIODeadline) -> Offer {
        state.withLock { state in
            guard !state.closed, let bytes = state.subscription.select(publication) else { return .nothing }
            if state.subscription.changes, !state.subscription.binary, publication.kind == .weight,
                let shown = publication.shown
            {
                // The same picture as the last sent, within the heartbeat: nothing to tell.
                if let last = state.lastShown[publication.sensor], last.shown == shown,
                    now < last.at + Subscription.changesHeartbeat
                {
                    return .nothing
                }
                state.lastShown[publication.sensor] = (shown, now)
            }
            var stalled: NIODeadline?
            if state.reportCount >= capacity {
                // The oldest report is almost always at the front; replies are few.
                if let oldest = state.queue.firstIndex(where: \.isReport) {
                    state.queue.remove(at: oldest)
                    state.reportCount -= 1
                    state.dropped += 1
                }
                if state.fullSince == nil {
                    state.fullSince = now
                    stalled = now
                }
            }
            state.queue.append(Entry(bytes: bytes, isReport: true))
            state.reportCount += 1
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
            state.queue.append(Entry(bytes: bytes, isReport: false))
            defer { state.drainPending = true }
            return !state.drainPending
        }
    }

    /// Replies not yet taken for writing.
    var replyBacklog: Int { state.withLock { $0.queue.count - $0.reportCount } }

    /// Takes up to `limit` messages into `batch`, whose messages must be empty; taking the last
    /// one ends the pending drain. The event loop passes the same batch each time, so that its
    /// storage is reused.
    func take(limit: Int, into batch: inout Batch) {
        state.withLock { state in
            batch.dropped = 0
            batch.exhausted = false
            batch.binary = state.subscription.binary
            var tookReport = false
            while batch.messages.count < limit, let entry = state.queue.popFirst() {
                batch.messages.append(entry.bytes)
                if entry.isReport {
                    state.reportCount -= 1
                    tookReport = true
                }
            }
            if tookReport || state.reportCount == 0 {
                // The client took something (or there is nothing to take): it is not stuck.
                state.fullSince = nil
            }
            if tookReport {
                batch.dropped = state.dropped
                state.dropped = 0
            }
            if state.queue.isEmpty {
                // Ending the drain here, under the same lock, saves the writer a second
                // visit just to find the queue empty.
                state.drainPending = false
                batch.exhausted = true
            }
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
            state.queue.removeAll()
            state.reportCount = 0
        }
    }
}
