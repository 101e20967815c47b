/// The rows a ``HistoryRecorder`` produced that are not written yet, and when to write them: a
/// stable reading (a placement, what users look for) within ``Policy/stableDelay`` of being
/// recorded; minute summaries, which come every minute even with nothing on the pans, within
/// ``Policy/minuteDelay``, or with the next stable reading's write, whichever is first.
///
/// The daemon's item events and session figures are written as a placement is, within
/// `stableDelay`: they are what a user weighing fruit looks for.
///
/// So a power cut loses at most the stable readings, items and session figures of the last
/// `stableDelay` seconds and the summaries of the last `minuteDelay` (plus the minute still
/// open, which is in memory only). A lost item is lost from the history for good (the daemon
/// does not send it again); a lost session's figures come back with its next report, as the
/// daemon keeps its sessions itself. A stop (SIGTERM) writes everything first, and a read of the
/// placements, items or sessions writes what waits before it reads (``HistoryKeeper``).
/// Times are the readings' own: a clock stepped backwards writes at once rather than waiting.
package struct HistoryBatch: Sendable {
    package struct Policy: Hashable, Sendable {
        /// Seconds a stable reading may wait to be written.
        package var stableDelay: Double
        /// Seconds a minute summary may wait to be written.
        package var minuteDelay: Double
        /// Rows kept while writes fail (a full card); beyond it the oldest are dropped.
        package var limit: Int

        /// 90 s for a placement (`[web] history_commit_seconds`), 15 minutes for summaries: at
        /// rest 90 commits a day instead of 2 880, at a new load a minute two placements to a
        /// commit (720 a day, not 1 440), and never more than one every 90 s however fast loads
        /// come and go. Each commit costs the card some 32 to 48 KiB whatever it holds (whole
        /// pages of the WAL, of its `-shm` index and of the file system's own blocks), so the
        /// commits, not the rows, are what the card's budget counts (docs/PERFORMANCE.md, "Writes
        /// to the SD card"). The summaries waiting are read with the file's (``HistoryKeeper``).
        package static let standard = Policy(stableDelay: 90, minuteDelay: 900, limit: 100_000)

        /// Every row written with the reading that produced it: for tests that read the store at once.
        package static let immediate = Policy(stableDelay: 0, minuteDelay: 0, limit: 100_000)

        package init(stableDelay: Double, minuteDelay: Double, limit: Int) {
            self.stableDelay = stableDelay
            self.minuteDelay = minuteDelay
            self.limit = limit
        }
    }

    package let policy: Policy
    package private(set) var stable: [StableReading] = []
    package private(set) var minutes: [MinuteSummary] = []
    package private(set) var items: [ItemRecord] = []
    /// The latest figures of each session reported since the last write, in report order.
    package private(set) var sessions: [SessionRecord] = []
    /// When the oldest waiting placement, item or session figure was added.
    private var firstStable: Double?
    private var firstMinute: Double?
    /// The time of the newest reading added.
    package private(set) var newest = -Double.infinity

    package init(policy: Policy = .standard) {
        self.policy = policy
    }

    package var count: Int { stable.count + minutes.count + items.count + sessions.count }
    package var isEmpty: Bool { count == 0 }
    /// Whether placements, items or session figures wait: what a read of them must not miss.
    package var holdsPlacements: Bool { !stable.isEmpty || !items.isEmpty || !sessions.isEmpty }

    /// Adds what one reading produced, recorded at `time` (the reading's time).
    package mutating func add(_ output: HistoryRecorder.Output, at time: Double) {
        newest = max(newest, time)
        if let reading = output.stable {
            stable.append(reading)
            if firstStable == nil { firstStable = time }
        }
        if let minute = output.minute {
            minutes.append(minute)
            if firstMinute == nil { firstMinute = time }
        }
        trim()
    }

    /// Adds an item event, reported at `time` (its own): written as a placement is.
    package mutating func add(item: ItemRecord, at time: Double) {
        items.append(item)
        placed(at: time)
    }

    /// Adds a session's figures, reported at `time`; they replace the figures of the same session
    /// still waiting, so a batch holds one row per session however many items it recorded.
    package mutating func add(session: SessionRecord, at time: Double) {
        sessions.removeAll {
            $0.name == session.name && $0.sensor == session.sensor && $0.started == session.started
        }
        sessions.append(session)
        placed(at: time)
    }

    private mutating func placed(at time: Double) {
        newest = max(newest, time)
        if firstStable == nil { firstStable = time }
        trim()
    }

    /// Adds the summaries a flush closed; they are written with the next write.
    package mutating func add(minutes closed: [MinuteSummary]) {
        minutes += closed
        if firstMinute == nil, !closed.isEmpty { firstMinute = newest }
        trim()
    }

    /// Whether the batch should be written at `time`.
    package func isDue(at time: Double) -> Bool {
        func waited(_ since: Double?, _ delay: Double) -> Bool {
            guard let since else { return false }
            return time - since >= delay || time < since
        }
        return waited(firstStable, policy.stableDelay) || waited(firstMinute, policy.minuteDelay)
    }

    /// Writes the batch to `store` in one transaction: emptied after a good write; after a failed
    /// one (a full card) every row stays and the next attempt comes a full delay later, so
    /// nothing recorded meanwhile is lost (up to ``Policy/limit``) and none is written twice: a
    /// failed transaction is rolled back whole.
    /// - Returns: why the write failed, or nil.
    package mutating func write(to store: HistoryStore) -> HistoryError? {
        guard !isEmpty else { return nil }
        do {
            try store.append(stable: stable, minutes: minutes, items: items, sessions: sessions)
            clear()
            return nil
        } catch {
            retryLater(from: newest)
            return error
        }
    }

    /// Empties the batch after a good write.
    package mutating func clear() {
        (stable, minutes, items, sessions, firstStable, firstMinute) = ([], [], [], [], nil, nil)
    }

    /// After a failed write: the rows stay, and the next attempt comes a full delay later, so a
    /// full card is not asked again at every reading.
    package mutating func retryLater(from time: Double) {
        if firstStable != nil { firstStable = time }
        if firstMinute != nil { firstMinute = time }
    }

    private mutating func trim() {
        let excess = count - policy.limit
        guard excess > 0 else { return }
        // Summaries first, then placements, then items: what a user looks for goes last.
        let fromMinutes = min(excess, minutes.count)
        minutes.removeFirst(fromMinutes)
        let fromStable = min(excess - fromMinutes, stable.count)
        stable.removeFirst(fromStable)
        items.removeFirst(min(excess - fromMinutes - fromStable, items.count))
    }
}
