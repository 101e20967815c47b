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
enum SettingsRequests {
    static func reply(to request: Request, on station: isolated Station) -> Report {
        switch request {
        case .presetTare(let sensor, let grams): presetTare(sensor, grams: grams, named: nil, on: station)
        case .useTare(let sensor, let name):
            if let grams = station.runtime.tares[name] {
                presetTare(sensor, grams: grams, named: name, on: station)
            } else {
                .command(
                    CommandReply(
                        command: "TARE", sensor: sensor, ok: false, reason: "unknownTare",
                        message: "no named tare \"\(name)\"; " + library(station.runtime)))
            }
        case .tares(let library): tares(library, on: station)
        case .setAlert(let change): setAlert(change, on: station)
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

    private static func presetTare(_ sensor: String, grams: Double, named: String?, on station: isolated Station)
        -> Report
    {
        guard let result = station.update(sensor, { $0.presetTare(grams: grams) }) else {
            return station.channels.unknownSensor(sensor)
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

    private static func tares(_ request: TareLibraryRequest, on station: isolated Station) -> Report {
        var runtime = station.runtime
        let changed: String
        switch request {
        case .list:
            return .tares(report(runtime))
        case .save(let name, let sensor, let grams):
            var weight = grams ?? 0
            if let sensor {
                guard let channel = station.channels[sensor] else { return station.channels.unknownSensor(sensor) }
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
                return .error(message: "no named tare \"\(name)\" to delete; " + library(runtime))
            }
            changed = name
        }
        if let failure = station.saveRuntime(runtime) { return .error(message: failure) }
        let reply = Report.tares(report(runtime, changed: changed))
        // Every client that watches all sensors (the bridge, the web page) updates its list.
        station.publisher.publishEvent(reply, sensor: "")
        return reply
    }

    private static func setAlert(_ change: AlertChange, on station: isolated Station) -> Report {
        guard let rule = station.configuredAlerts.first(where: { $0.name == change.name }) else {
            let names = station.configuredAlerts.map { "\"\($0.name)\"" }
            return .error(
                message: "no alert named \"\(change.name)\"; "
                    + (names.isEmpty
                        ? "the configuration has no [[alert]]" : "alerts: " + names.joined(separator: ", ")))
        }
        let runtime = RuntimeAlerts.apply(change, to: rule, in: station.runtime)
        if let failure = station.saveRuntime(runtime) { return .error(message: failure) }
        station.putAlertsIntoUse()
        let current = station.channels.alertReports(sensors: [rule.sensor], now: UTCTimestamp.epochSeconds())
        return current.first { if case .alert(let alert) = $0 { alert.name == rule.name } else { false } }
            ?? .error(message: "alert \"\(rule.name)\" is not in use")
    }
}

extension Station {
    /// Saves `runtime` and puts it in place; the error in words when it could not be saved, and
    /// then nothing changed.
    func saveRuntime(_ runtime: RuntimeSettings) -> String? {
        if let error = noteSave("runtime settings", settingsStore.save(runtime)) { return "not changed: \(error)" }
        self.runtime = runtime
        return nil
    }

    /// Puts the configuration's `[[alert]]` rules with the runtime values that win into use
    /// (``RuntimeAlerts``); publishes the rules that changed.
    /// - Returns: what changed, for the log and systemd's STATUS=.
    @discardableResult
    func putAlertsIntoUse() -> String {
        var runtime = self.runtime
        let overlay = RuntimeAlerts.overlay(configuredAlerts, on: &runtime)
        for line in overlay.log { logger.notice("\(line)") }
        if runtime != self.runtime { _ = saveRuntime(runtime) }
        let reload = channels.applyAlerts(overlay.rules, now: UTCTimestamp.epochSeconds())
        for line in reload.log { logger.notice("\(line)") }
        for report in reload.reports { publisher.publishEvent(.alert(report), sensor: report.sensor) }
        return reload.summary
    }
}

extension SettingsRequests {
    /// With `[scale] recognize_containers`, sets a saved container's tare when one is put on the
    /// empty pan of `name` (``ContainerRecognizer``), in the turn of the reading that shows it.
    static func recognizeContainer(on name: String, _ station: isolated Station) {
        guard !station.runtime.tares.isEmpty, let channel = station.channels[name],
            channel.engine.configuration.recognizeContainers, let reading = channel.latest
        else { return }
        var recognizer = station.recognizers[name] ?? ContainerRecognizer()
        let match = recognizer.observe(reading, tares: station.runtime.tares)
        station.recognizers[name] = recognizer
        guard let match, let gross = reading.gross else { return }
        switch station.update(name, { $0.presetTare(grams: match.grams) }) {
        case .success(let tare)?:
            station.logger.notice(
                "\(name): container \"\(match.name)\" recognised (\(gross) g on the empty pan); tare \(tare) g")
        case .failure(let refusal)?:
            station.logger.warning("\(name): container \"\(match.name)\" recognised, not tared: \(refusal)")
        case nil:
            break
        }
    }
}
