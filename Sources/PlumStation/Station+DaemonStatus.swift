internal import PlumProtocol
internal import PlumSystem

extension Station {
    /// Keeps this run's record of starts for `?DEVICES` (``DaemonRuns/begin(directory:)``).
    package func record(_ runs: DaemonRuns.Record) { self.runs = runs }

    /// The `daemon` object of `?DEVICES`: the start, the restarts, and the state directory's
    /// free space, read now (one `statvfs(2)`, cheap enough for each `?DEVICES`).
    ///
    /// The start is told on the wall clock as it reads now, less the uptime on the monotonic
    /// clock: a Pi that set its clock after the daemon started (from an old fake-hwclock, by NTP)
    /// shows when it really started, not the time its clock had then.
    func daemonStatus(uptime: Double) -> DaemonStatus {
        let directory = calibrationStore.directory
        let startedAt = UTCTimestamp.string(epochSeconds: UTCTimestamp.epochSeconds() - uptime)
        var status = DaemonStatus(
            started: startedAt, starts: runs?.starts, uncleanStops: runs?.uncleanStops, lastStop: runs?.lastStop,
            stateDirectory: directory, stateSaveError: saves.problem)
        do {
            let space = try FileSystemSpace.of(directory)
            status.stateFreeBytes = Int64(clamping: space.availableBytes)
            status.stateTotalBytes = Int64(clamping: space.totalBytes)
        } catch {
            status.stateError = error.description
        }
        return status
    }
}
