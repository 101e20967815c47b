package import PlumHistory
package import PlumProtocol

/// Records the readings plumscale-web receives into the history store, and deletes what is
/// older than the retention. plumscale-web, not plumscaled, keeps the history: the daemon stays
/// free of SQLite and of disk writes the scale does not need, and a history that cannot be
/// written never disturbs weighing.
package actor HistoryKeeper {
    package let store: HistoryStore
    package let retentionSeconds: Double
    private var recorder: HistoryRecorder
    private var lastPurge = -Double.infinity
    private var failure: String?

    package init(store: HistoryStore, retentionDays: Int, division: Double = 0.1) {
        self.store = store
        retentionSeconds = Double(retentionDays) * 86_400
        recorder = HistoryRecorder(division: division)
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

    /// Takes one WEIGHT report; writes what it completes.
    package func record(_ weight: WeightReport) {
        let output = recorder.record(
            HistorySample(
                sensor: weight.sensor, time: weight.time, grams: weight.shownGrams, stable: weight.stable,
                outOfRange: weight.overload || weight.underload))
        write(stable: output.stable.map { [$0] } ?? [], minutes: output.minute.map { [$0] } ?? [])
        if weight.time - lastPurge > 3600 {
            lastPurge = weight.time
            do {
                try store.purge(before: weight.time - retentionSeconds)
            } catch {
                failure = error.message
            }
        }
    }

    /// Writes the minutes still open: on shutdown, so the last partial minute is kept.
    package func flush() {
        write(stable: [], minutes: recorder.flush())
    }

    /// The last write error, if writing failed; cleared by the next good write.
    package var lastFailure: String? { failure }

    private func write(stable: [StableReading], minutes: [MinuteSummary]) {
        do {
            try store.append(stable: stable, minutes: minutes)
            failure = nil
        } catch {
            failure = error.message
        }
    }
}
