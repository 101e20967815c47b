/// How the station's waits end when no reading ends them: a time-out, a cancelled command, a
/// consumer that stopped reading. Each runs on the station's actor (`isolated`), as the
/// readings that would otherwise have ended the wait do, and does nothing for a wait that was
/// answered before.
enum WaitEnds {
    /// Ends a stable wait (MT-SICS `S`, `Z`, `T`, a button) that timed out or was cancelled.
    static func stable(_ token: UInt64, on station: isolated Station) {
        guard let name = station.waits.sensor(ofStableWait: token),
            let outcome = station.update(name, { $0.endWait(token) }) ?? nil
        else { return }
        station.waits.resumeStable(token, outcome)
    }

    /// Ends a wait for the next reading of a sensor that sent none in time: the old reading.
    static func nextReading(_ token: UInt64, on station: isolated Station) {
        guard let waiter = station.waits.endNextWait(token) else { return }
        waiter.reply.resume(returning: station.channels[waiter.sensor]?.current)
    }

    /// Forgets a stream of readings whose consumer has gone.
    static func readingStream(_ token: UInt64, on station: isolated Station) { station.waits.stopFollowing(token) }
}
