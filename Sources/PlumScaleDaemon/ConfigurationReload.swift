internal import PlumDaemonConfig
internal import PlumSettings
internal import PlumStation
internal import Synchronization

/// Re-reads the configuration on SIGHUP and puts into use what can change while running:
/// `[scale]` and each sensor's profile and scale keys. Sensors' wiring, listeners, the cue line
/// and the buttons are opened at start, so a change to them is reported as needing a restart rather than
/// half applied; a file that no longer parses leaves everything as it was.
func reloadConfiguration(_ path: String, inUse: ConfigurationInUse, station: Station) async -> [String] {
    let fresh: PlumConfiguration
    do {
        fresh = try PlumConfiguration.load(path: path)
    } catch {
        return ["\(path) not reloaded: \(error); the configuration in use stays"]
    }
    let old = inUse.current.withLock { $0 }
    var notes: [String] = []
    // A sensor's profile and scale keys are engine settings, put into use below; the rest of
    // its table (the wiring) is opened at start.
    if fresh.sensors.map(\.hardware) != old.sensors.map(\.hardware) {
        notes.append("[[sensor]] changes in \(path) need a restart (systemctl restart plumscaled)")
    }
    if fresh.daemon != old.daemon { notes.append("[daemon] changes need a restart") }
    if fresh.cue?.chip != old.cue?.chip || fresh.cue?.line != old.cue?.line
        || fresh.cue?.activeLow != old.cue?.activeLow
        || fresh.cue?.pulseMilliseconds != old.cue?.pulseMilliseconds
    {
        notes.append("[cue] line changes need a restart")
    }
    // Where a button's table sits in the file is no change to the button.
    let buttons = { (configuration: PlumConfiguration) in
        configuration.buttons.map { button in
            var button = button
            button.position = SourcePosition(file: "")
            return button
        }
    }
    if buttons(fresh) != buttons(old) { notes.append("[[button]] changes need a restart") }
    if fresh.classes.map(\.withoutLine) != old.classes.map(\.withoutLine) {
        notes.append("[[class]] changes need a restart")
    }
    if fresh.scale != old.scale || fresh.cue?.onStable != old.cue?.onStable || fresh.sensors != old.sensors {
        var applied = old
        applied.scale = fresh.scale
        for index in applied.sensors.indices {
            guard let sensor = fresh.sensors.first(where: { $0.name == applied.sensors[index].name }) else { continue }
            applied.sensors[index].profile = sensor.profile
            applied.sensors[index].scale = sensor.scale
        }
        applied.cue?.onStable = fresh.cue?.onStable ?? false
        notes.append(await station.applyScaleSettings(of: applied))
        inUse.current.withLock { $0 = applied }
    }
    if fresh.alerts != old.alerts {
        // A rule on a sensor that is not running yet (a [[sensor]] added, which needs a restart)
        // waits for that restart; the others are put into use now.
        let running = Set(old.sensors.map(\.name))
        let waiting = fresh.alerts.filter { !running.contains($0.sensor) }
        notes.append(await station.applyAlerts(fresh.alerts.filter { running.contains($0.sensor) }))
        if !waiting.isEmpty {
            notes.append("[[alert]] \(waiting.map(\.name).joined(separator: ", ")) waits for a restart of its sensor")
        }
        inUse.current.withLock { $0.alerts = fresh.alerts }
    }
    if notes.isEmpty { notes.append("\(path) unchanged") }
    return notes
}

/// The configuration the running daemon follows, changed by reloads.
final class ConfigurationInUse: Sendable {
    let current: Mutex<PlumConfiguration>
    init(_ configuration: PlumConfiguration) { current = Mutex(configuration) }
}
