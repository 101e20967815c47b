import FoundationEssentials
internal import PlumProtocol

/// The diagnostic entities' data: the daemon's `?DEVICES`, asked when the link connects, after
/// each `STATE` report and once a minute, and turned into each pan's diagnostics
/// (``DiagnosticsKeeper``) and the daemon's start time.
extension BridgeState {
    /// Seconds between two `?DEVICES` for the diagnostics: the hourly counts move by the minute.
    static var diagnosticsInterval: Double { 60 }

    /// Logs a pan's `STATE` once per change of its state or reason: the daemon sends it again at
    /// each retry of a fault, and the journal on the SD card would keep every one. An outage's
    /// line is a warning and says what Home Assistant shows.
    mutating func logState(_ state: StateReport) {
        let text = state.state + (state.reason.map { ": \($0)" } ?? "")
        guard loggedStates[state.sensor] != text else { return }
        loggedStates[state.sensor] = text
        if Self.outageStates.contains(state.state) {
            log(.warning, "\(state.sensor): \(text); the sensor delivers no samples, its entities are unavailable")
        } else {
            log(.info, "\(state.sensor): \(text)")
        }
    }

    /// Asks the daemon for `?DEVICES` unless an answer is awaited.
    mutating func askDevices() {
        guard daemonUp, !devicesInFlight else { return }
        devicesInFlight = true
        devicesAskedAt = now
        // The answer comes back in the actor's turn, in order with the reports.
        ask(.devices)
    }

    /// The daemon's `?DEVICES`, or why there is none.
    mutating func devicesAnswered(_ answer: Result<DevicesReport, BridgeError>) {
        switch answer {
        case .success(let report): received(report)
        case .failure(let error): devicesFailed(error)
        }
    }

    private mutating func received(_ report: DevicesReport) {
        devicesInFlight = false
        capacitiesChanged(report)
        settingsRead("devices")
        for pan in diagnostics.devices(report, at: now) where pans.contains(pan) { publishDiagnostics(pan) }
        if let uptime = report.uptime, diagnostics.uptime(uptime, now: Date().timeIntervalSince1970) {
            publishStarted()
        }
    }

    private mutating func devicesFailed(_ error: BridgeError) {
        devicesInFlight = false
        // The link reports a daemon that went away; a minute later the bridge asks again.
        log(.info, "diagnostics not read from plumscaled: \(error)")
        settingsRead("devices")
    }

    /// Publishes `pan`'s diagnostics, retained.
    mutating func publishDiagnostics(_ pan: String) {
        guard let figures = diagnostics.pans[pan] else { return }
        send(settings.topics.diagnostics(pan), text: Self.json(figures), retain: settings.retain)
    }

    /// Everything the diagnostic entities show, as after a reconnect to the broker.
    mutating func publishAllDiagnostics() {
        for pan in pans { publishDiagnostics(pan) }
        publishStarted()
    }

    /// When the daemon started, on the wall clock, as Home Assistant's timestamp sensors read it.
    private mutating func publishStarted() {
        guard let started = diagnostics.started else { return }
        let text = Date(timeIntervalSince1970: started.rounded()).formatted(.iso8601)
        send(settings.topics.scaleDiagnostics, text: Self.json(["started": text]), retain: settings.retain)
    }
}
