internal import PlumDaemonConfig
internal import PlumProtocol
internal import PlumSystem

extension StationState {
    /// The `daemon` object of `?DEVICES`: the start, the restarts, and the state directory's
    /// free space, read now (one `statvfs(2)`, cheap enough for each `?DEVICES`).
    ///
    /// The start is told on the wall clock as it reads now, less the uptime on the monotonic
    /// clock: a Pi that set its clock after the daemon started (from an old fake-hwclock, by NTP)
    /// shows when it really started, not the time its clock had then.
    func daemonStatus(uptime: Double) -> DaemonStatus {
        let directory = files.directory
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

    /// `?DEVICES`, `uptime` nanoseconds after the daemon started, with each sampler's `status`
    /// and the daemon's own.
    func devices(uptime: UInt64, status: (String) -> SamplerStatus?) -> Report {
        guard case .devices(var devices) = channels.devices(uptime: uptime, status: status) else {
            return .error(message: "?DEVICES could not be built")
        }
        devices.daemon = daemonStatus(uptime: Double(uptime) / 1e9)
        return .devices(devices)
    }

    /// Puts reloaded `[scale]` settings into use (``ChannelSet/applyScaleSettings(of:)``); the
    /// captures it ended are for the actor to answer.
    mutating func applyScaleSettings(of configuration: PlumConfiguration) -> ChannelSet.ScaleReload {
        let reload = channels.applyScaleSettings(of: configuration)
        for line in reload.log { log(.notice, line) }
        return reload
    }
}
