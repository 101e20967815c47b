package import PlumDaemonConfig
internal import PlumCore
internal import PlumHardware
package import PlumProtocol

/// One `[[alert]]` rule as the station keeps it: the engine's pure state machine, and when it
/// last changed, for the current state a new watcher is sent.
struct StationAlert: Sendable {
    var state: AlertState
    /// Wall-clock seconds of the last change; nil while it has not changed since the start.
    var changedAt: Double?

    init(_ settings: AlertSettings) {
        let condition: AlertRule.Condition =
            switch settings.direction {
            case .below: .below(grams: settings.grams)
            case .above: .above(grams: settings.grams)
            }
        let hold = UInt64(max(0, (settings.holdSeconds * 1e9).rounded()))
        state = AlertState(
            rule: AlertRule(
                name: settings.name, sensor: settings.sensor, condition: condition,
                hysteresis: settings.hysteresisGrams, holdNanoseconds: hold, cue: settings.cue))
    }

    /// The `ALERT` report of the current state; `now` stands in for a time that never changed.
    /// A rule taken out of the configuration is reported once more, `removed` and not active.
    func report(now: Double, removed: Bool = false) -> AlertReport {
        let rule = state.rule
        let condition =
            switch rule.condition {
            case .below: "below"
            case .above: "above"
            }
        return AlertReport(
            name: rule.name, sensor: rule.sensor, active: state.isActive && !removed, grams: state.grams,
            time: removed ? now : changedAt ?? now, condition: condition, threshold: rule.threshold,
            hysteresis: rule.hysteresis, removed: removed)
    }
}

/// Alerts: each rule runs on every reading of its sensor; a change goes to the watchers of that
/// sensor as an `ALERT` report, and a raised rule with `cue = true` pulses the cue line.
extension Station {
    func evaluateAlerts(_ name: String, _ reading: Reading, sampleTime: MonotonicInstant) {
        for index in alerts.indices where alerts[index].state.rule.sensor == name {
            guard let change = alerts[index].state.update(reading) else { continue }
            let time = WallClock.seconds(at: sampleTime)
            alerts[index].changedAt = time
            let rule = alerts[index].state.rule
            switch change {
            case .raised(let grams):
                logger.notice("alert \(rule.name) raised: \(name) at \(Self.grams(grams))")
                if rule.cue { cueSink?.cue(.alert(name: rule.name), sensor: name) }
            case .cleared(let grams):
                logger.notice("alert \(rule.name) cleared: \(name) at \(Self.grams(grams))")
            }
            publisher.publishEvent(.alert(alerts[index].report(now: time)), sensor: name)
        }
    }

    /// The current `ALERT` state of every rule on `sensors` (all when empty), for a client that
    /// has just begun to watch, as gpsd sends `DEVICES`: a bridge that starts later is not wrong.
    package func alertReports(sensors: [String]) -> [Report] {
        let now = UTCTimestamp.epochSeconds()
        return
            alerts
            .filter { sensors.isEmpty || sensors.contains($0.state.rule.sensor) }
            .map { .alert($0.report(now: now)) }
    }
}

/// Reloads: the `[[alert]]` rules follow the configuration file.
extension Station {
    /// Puts a reloaded file's `[[alert]]` rules into use. A rule whose name and settings are
    /// unchanged keeps its state (an active alert stays raised, a hold goes on); a changed rule
    /// starts again clear, and a rule taken out is reported `removed`, so no client keeps showing
    /// an alert nothing evaluates any more. New and changed rules are reported in their state now.
    /// - Returns: what changed, for the log and systemd's STATUS=.
    package func applyAlerts(_ settings: [AlertSettings]) -> String {
        let now = UTCTimestamp.epochSeconds()
        let fresh = settings.map(StationAlert.init)
        var kept = 0
        var started: [String] = []
        var next: [StationAlert] = []
        for alert in fresh {
            if let old = alerts.first(where: { $0.state.rule == alert.state.rule }) {
                next.append(old)
                kept += 1
            } else {
                next.append(alert)
                started.append(alert.state.rule.name)
            }
        }
        let names = Set(fresh.map(\.state.rule.name))
        let removed = alerts.filter { !names.contains($0.state.rule.name) }
        alerts = next
        for alert in removed {
            let rule = alert.state.rule
            logger.notice("alert \(rule.name) removed from the configuration\(alert.state.isActive ? "; cleared" : "")")
            publisher.publishEvent(.alert(alert.report(now: now, removed: true)), sensor: rule.sensor)
        }
        for alert in next where started.contains(alert.state.rule.name) {
            publisher.publishEvent(.alert(alert.report(now: now)), sensor: alert.state.rule.sensor)
        }
        var parts = ["\(kept) kept"]
        if !started.isEmpty { parts.append("\(started.count) new or changed (\(started.joined(separator: ", ")))") }
        if !removed.isEmpty {
            parts.append("\(removed.count) removed (\(removed.map(\.state.rule.name).joined(separator: ", ")))")
        }
        return "[[alert]] rules: " + parts.joined(separator: ", ")
    }
}
