import FoundationEssentials
package import Logging
package import PlumHistory
package import PlumProtocol

/// Records the readings plumscale-web receives into the history store, and deletes what is
/// older than the retention. plumscale-web, not plumscaled, keeps the history: the daemon stays
/// free of SQLite and of disk writes the scale does not need, and a history that cannot be
/// written never disturbs weighing.
///
/// Rows are written in batches (``HistoryBatch``), not one transaction each: every commit
/// rewrites whole 4 KiB pages of the table and of its indexes in the WAL, so a commit for each
/// pan's summary every minute alone came to about 35 MB a day (docs/PERFORMANCE.md, "Writes to
/// the SD card"). A crash or a power cut loses what was not written yet: at most the last
/// `[web] history_commit_seconds` (90 s unless set) of placements, items and session figures, and
/// 15 minutes of summaries. A stop writes it all (``flush()``); a read of the placements, items or
/// sessions writes what waits first (``writeWaiting()``), and a read of the minutes adds the
/// closed summaries waiting (``waitingMinutes(sensor:in:)``), so what the page and
/// `/api/history` show is never behind the scale.
///
/// The daemon's `ITEM` and `SESSION` reports are kept too (docs/web.md, "History"): each item
/// event once (the store ignores a copy of one it has), each session's latest figures, and the
/// store names a session in the `placed` items of its sensor while it ran.
package actor HistoryKeeper {
    package let store: HistoryStore
    package let retentionSeconds: Double
    private var recorder: HistoryRecorder
    private var batch: HistoryBatch
    private var lastPurge = -Double.infinity
    /// The newest report time seen: a SESSION report carries none of its own.
    private var clock = -Double.infinity
    private var failure: String?
    /// The writes that failed since the last good one (a full card), and why the first did.
    private var writeFailure: WriteFailure?
    private let logger: Logger

    /// Writes failing now: shown by `/api/status`, logged once when they begin and once when
    /// they end, however many due batches fail between.
    package struct WriteFailure: Sendable, Hashable {
        /// The first failure's error: the file, what SQLite said, and for a full disk what to do.
        package var message: String
        package var failedWrites: Int
        /// Rows waiting in memory to be written (at most the batch's limit).
        package var unwritten: Int
    }

    package init(
        store: HistoryStore, retentionDays: Int, division: Double = 0.1, batching: HistoryBatch.Policy = .standard,
        logger: Logger = Logger(label: "plumscale-web.history")
    ) {
        self.store = store
        self.logger = logger
        retentionSeconds = Double(retentionDays) * 86_400
        recorder = HistoryRecorder(division: division)
        batch = HistoryBatch(policy: batching)
        // A restarted plumscale-web takes up where it left off, so the load that stayed on a pan
        // is not stored again as a new placement. A store that cannot say is started afresh.
        do {
            for reading in try store.lastStableReadings() {
                recorder.resume(sensor: reading.sensor, lastStored: reading.grams)
            }
        } catch {
            failure = error.message
        }
    }

    /// Takes one WEIGHT report; writes the batch once it is due.
    package func record(_ weight: WeightReport) {
        let output = recorder.record(
            HistorySample(
                sensor: weight.sensor, time: weight.time, grams: weight.shownGrams, stable: weight.stable,
                outOfRange: weight.overload || weight.underload))
        batch.add(output, at: weight.time)
        clock = max(clock, weight.time)
        if batch.isDue(at: weight.time) { write() }
        // Hourly by the readings' clock; a clock stepped back (NTP, or a wrong time put right)
        // purges at once and starts the hour again, rather than waiting for the old time.
        if weight.time - lastPurge > 3600 || weight.time < lastPurge {
            lastPurge = weight.time
            do {
                try store.purge(before: weight.time - retentionSeconds)
            } catch {
                failure = error.message
            }
        }
    }

    /// Takes one ITEM report; it is written as a placement is.
    package func record(_ item: ItemReport) {
        clock = max(clock, item.time)
        batch.add(
            item: ItemRecord(
                sensor: item.sensor, sequence: item.sequence, item: item.item, event: item.event, grams: item.grams,
                grossAfter: item.grossAfter, weightClass: item.weightClass, flags: item.flags, time: item.time),
            at: item.time)
        if batch.isDue(at: item.time) { write() }
    }

    /// Takes one SESSION report: the figures of each session it carries (a start, a stop, an
    /// item recorded, or the reply to a show or list that came this way). A refusal carries
    /// nothing to keep.
    package func record(_ report: SessionReport) {
        guard report.ok else { return }
        for summary in report.sessions {
            guard let record = Self.sessionRecord(summary) else {
                failure = "session \(summary.name): start \(summary.started) is not an ISO 8601 time; not recorded"
                continue
            }
            let time = clock.isFinite ? clock : record.stopped ?? record.started
            batch.add(session: record, at: time)
            if batch.isDue(at: time) { write() }
        }
    }

    /// A session's figures as stored; nil when its start cannot be read.
    static func sessionRecord(_ summary: SessionSummary) -> SessionRecord? {
        func seconds(_ text: String) -> Double? {
            (try? Date(text, strategy: Date.ISO8601FormatStyle())).map(\.timeIntervalSince1970)
        }
        guard let started = seconds(summary.started) else { return nil }
        return SessionRecord(
            name: summary.name, sensor: summary.sensor, started: started, stopped: summary.stopped.flatMap(seconds),
            division: summary.division, count: summary.count, total: summary.total, mean: summary.mean,
            minimum: summary.minimum, maximum: summary.maximum, standardDeviation: summary.standardDeviation,
            classes: summary.classes.map { SessionRecord.ClassCount(name: $0.name, count: $0.count) },
            unclassified: summary.unclassified)
    }

    /// Writes the batch and the minutes still open: on shutdown, so nothing recorded is lost.
    package func flush() {
        batch.add(minutes: recorder.flush())
        write()
    }

    /// Writes the batch if placements, items or session figures wait in it (with the closed
    /// summaries beside them): before a read of those, so it sees every one recorded so far.
    /// Summaries alone keep waiting, so however often the history is read, the card sees no more
    /// commits than placements. The minute still open stays open. While writes fail (a full card)
    /// the rows keep waiting for the batch's own retry.
    package func writeWaiting() {
        guard batch.holdsPlacements, writeFailure == nil else { return }
        write()
    }

    /// The closed minute summaries still waiting to be written, of `sensor` (or every pan) in
    /// `window`, ordered as the file orders them (by minute, then pan): what a read of the minutes
    /// adds after the file's rows, so the page's chart is not behind by the summaries' delay.
    package func waitingMinutes(sensor: String?, in window: HistoryWindow) -> [MinuteSummary] {
        batch.minutes
            .filter { (sensor == nil || $0.sensor == sensor) && window.contains(Double($0.minute)) }
            .sorted { ($0.minute, $0.sensor) < ($1.minute, $1.sensor) }
    }

    /// The last write error, if writing failed; cleared by the next good write.
    package var lastFailure: String? { failure }

    /// Rows recorded but not yet written: what a power cut now would lose.
    package var unwritten: Int { batch.count }

    /// Writes failing now, with the rows waiting; nil while writes work.
    package var currentWriteFailure: WriteFailure? {
        writeFailure.map { WriteFailure(message: $0.message, failedWrites: $0.failedWrites, unwritten: batch.count) }
    }

    private func write() {
        guard !batch.isEmpty else { return }
        // Kept for the next attempt, a full delay later (a full card may have room again); the
        // batch is bounded (HistoryBatch).
        if let error = batch.write(to: store) {
            failure = error.message
            if var current = writeFailure {
                current.failedWrites += 1
                writeFailure = current
                return
            }
            writeFailure = WriteFailure(message: error.message, failedWrites: 1, unwritten: batch.count)
            let text =
                "history not written: \(error.message); \(batch.count) rows wait in memory (at most "
                + "\(batch.policy.limit)) and are written once a write works again, tried every "
                + "\(HistoryRoute.number(batch.policy.stableDelay)) s (logged once; the write that works is logged too)"
            logger.error("\(text)")
            return
        }
        failure = nil
        if let ended = writeFailure {
            writeFailure = nil
            logger.notice(
                "history written again: \(ended.failedWrites) writes had failed; every row kept meanwhile is stored")
        }
    }
}
