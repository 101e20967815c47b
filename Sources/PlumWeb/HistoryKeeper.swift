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
/// the SD card"). A crash or a power cut loses what was not written yet: at most the last 2 s of
/// placements and 5 minutes of summaries.
package actor HistoryKeeper {
    package let store: HistoryStore
    package let retentionSeconds: Double
    private var recorder: HistoryRecorder
    private var batch: HistoryBatch
    private var lastPurge = -Double.infinity
    private var failure: String?

    package init(
        store: HistoryStore, retentionDays: Int, division: Double = 0.1, batching: HistoryBatch.Policy = .standard
    ) {
        self.store = store
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
        if batch.isDue(at: weight.time) { write() }
        if weight.time - lastPurge > 3600 {
            lastPurge = weight.time
            do {
                try store.purge(before: weight.time - retentionSeconds)
            } catch {
                failure = error.message
            }
        }
    }

    /// Writes the batch and the minutes still open: on shutdown, so nothing recorded is lost.
    package func flush() {
        batch.add(minutes: recorder.flush())
        write()
    }

    /// The last write error, if writing failed; cleared by the next good write.
    package var lastFailure: String? { failure }

    /// Rows recorded but not yet written: what a power cut now would lose.
    package var unwritten: Int { batch.count }

    private func write() {
        guard !batch.isEmpty else { return }
        do {
            try store.append(stable: batch.stable, minutes: batch.minutes)
            batch.clear()
            failure = nil
        } catch {
            // Kept for the next attempt (a full card may have room again); the batch is bounded.
            failure = error.message
            batch.retryLater(from: batch.newest)
        }
    }
}
