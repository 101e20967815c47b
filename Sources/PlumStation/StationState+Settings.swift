internal import PlumCore
internal import PlumDaemonConfig
internal import PlumProtocol
internal import PlumStore

/// The settings a client changes while the daemon runs, carried out on the station: a preset
/// tare (`?TARE` with `grams`), a named tare put into use (`?TARE` with `name`), the library of
/// named tares (`?TARES`) and an `[[alert]]` rule's threshold and hysteresis (`?ALERT`).
///
/// Alert values and the library are saved in ``RuntimeSettingsStore`` before they are used, so
/// a change the daemon answered survives a restart; one that cannot be saved is refused. A
/// preset tare is saved with the zero, as every tare is (``ZeroTareStore``).
extension StationState {
    mutating func settingsReply(to request: Request) -> Report {
        switch request {
        case .presetTare(let sensor, let grams): presetTare(sensor, grams: grams, named: nil)
        case .useTare(let sensor, let name):
            if let grams = runtime.tares[name] {
                presetTare(sensor, grams: grams, named: name)
            } else {
                .command(
                    CommandReply(
                        command: "TARE", sensor: sensor, ok: false, reason: "unknownTare",
                        message: "no named tare \"\(name)\"; " + Self.library(runtime)))
            }
        case .tares(let library): tares(library)
        case .setAlert(let change): setAlert(change)
        case .watch, .poll, .devices, .version, .tare, .zero, .calibrate, .session, .count, .check, .client:
            .error(message: "\(request.name) is not a settings request")
        }
    }

    /// The named tares in words, for messages.
    static func library(_ runtime: RuntimeSettings) -> String {
        runtime.tares.isEmpty
            ? "the library is empty; save one with plumscale tare --save NAME"
            : "named tares: " + runtime.tares.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// The library as the `TARES` report has it, sorted by name.
    static func report(_ runtime: RuntimeSettings, changed: String? = nil) -> TareLibraryReport {
        TareLibraryReport(
            tares: runtime.tares.keys.sorted().map { NamedTare(name: $0, grams: runtime.tares[$0] ?? 0) },
            changed: changed)
    }

    private mutating func presetTare(_ sensor: String, grams: Double, named: String?) -> Report {
        guard let result = update(sensor, { $0.presetTare(grams: grams) }) else {
            return channels.unknownSensor(sensor)
        }
        var reply = CommandReply(command: "TARE", sensor: sensor, ok: false)
        switch result {
        case .success(let tare):
            reply.ok = true
            reply.tare = tare
            if let named { reply.message = "named tare \"\(named)\"" }
        case .failure(let refusal):
            reply.reason = refusal.code.rawValue
            reply.message = refusal.description
        }
        return .command(reply)
    }

    private mutating func tares(_ request: TareLibraryRequest) -> Report {
        var runtime = self.runtime
        let changed: String
        switch request {
        case .list:
            return .tares(Self.report(runtime))
        case .save(let name, let sensor, let grams):
            var weight = grams ?? 0
            if let sensor {
                guard let channel = channels[sensor] else { return channels.unknownSensor(sensor) }
                weight = channel.engine.shownTare
                guard weight > 0 else {
                    return .error(
                        message: "\(sensor) has no tare to save as \"\(name)\"; put the empty container on it "
                            + "and tare, then save, or give its weight in grams")
                }
            }
            if let refusal = runtime.saveTare(name, grams: weight) { return .error(message: refusal.description) }
            changed = name
        case .delete(let name):
            guard runtime.tares.removeValue(forKey: name) != nil else {
                return .error(message: "no named tare \"\(name)\" to delete; " + Self.library(runtime))
            }
            changed = name
        }
        if let failure = saveRuntime(runtime) { return .error(message: failure) }
        let reply = Report.tares(Self.report(runtime, changed: changed))
        // Every client that watches all sensors (the bridge, the web page) updates its list.
        publish(reply, sensor: "")
        return reply
    }

    private mutating func setAlert(_ change: AlertChange) -> Report {
        guard let rule = configuredAlerts.first(where: { $0.name == change.name }) else {
            let names = configuredAlerts.map { "\"\($0.name)\"" }
            return .error(
                message: "no alert named \"\(change.name)\"; "
                    + (names.isEmpty
                        ? "the configuration has no [[alert]]" : "alerts: " + names.joined(separator: ", ")))
        }
        let runtime = RuntimeAlerts.apply(change, to: rule, in: self.runtime)
        if let failure = saveRuntime(runtime) { return .error(message: failure) }
        putAlertsIntoUse()
        let current = channels.alertReports(sensors: [rule.sensor], now: UTCTimestamp.epochSeconds())
        return current.first { if case .alert(let alert) = $0 { alert.name == rule.name } else { false } }
            ?? .error(message: "alert \"\(rule.name)\" is not in use")
    }
}

extension StationState {
    /// Saves `runtime` and puts it in place; the error in words when it could not be saved, and
    /// then nothing changed.
    mutating func saveRuntime(_ runtime: RuntimeSettings) -> String? {
        if let error = noteSave("runtime settings", files.settings.save(runtime)) { return "not changed: \(error)" }
        self.runtime = runtime
        return nil
    }

    /// Puts the configuration's `[[alert]]` rules with the runtime values that win into use
    /// (``RuntimeAlerts``); publishes the rules that changed.
    /// - Returns: what changed, for the log and systemd's STATUS=.
    @discardableResult
    mutating func putAlertsIntoUse() -> String {
        var runtime = self.runtime
        let overlay = RuntimeAlerts.overlay(configuredAlerts, on: &runtime)
        for line in overlay.log { log(.notice, line) }
        if runtime != self.runtime { _ = saveRuntime(runtime) }
        let reload = channels.applyAlerts(overlay.rules, now: UTCTimestamp.epochSeconds())
        for line in reload.log { log(.notice, line) }
        for report in reload.reports { publish(.alert(report), sensor: report.sensor) }
        return reload.summary
    }
}

extension StationState {
    /// With `[scale] recognize_containers`, sets a saved container's tare when one is put on the
    /// empty pan of `name` (``ContainerRecognizer``), in the turn of the reading that shows it.
    mutating func recognizeContainer(on name: String) {
        guard !runtime.tares.isEmpty, let channel = channels[name],
            channel.engine.configuration.recognizeContainers, let reading = channel.latest
        else { return }
        var recognizer = recognizers[name] ?? ContainerRecognizer()
        let match = recognizer.observe(reading, tares: runtime.tares)
        recognizers[name] = recognizer
        guard let match, let gross = reading.gross else { return }
        switch update(name, { $0.presetTare(grams: match.grams) }) {
        case .success(let tare)?:
            log(
                .notice, "\(name): container \"\(match.name)\" recognised (\(gross) g on the empty pan); tare \(tare) g"
            )
        case .failure(let refusal)?:
            log(.warning, "\(name): container \"\(match.name)\" recognised, not tared: \(refusal)")
        case nil:
            break
        }
    }
}
