internal import PlumConfig
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
    func report(now: Double) -> AlertReport {
        let rule = state.rule
        let condition =
            switch rule.condition {
            case .below: "below"
            case .above: "above"
            }
        return AlertReport(
            name: rule.name, sensor: rule.sensor, active: state.isActive, grams: state.grams,
            time: changedAt ?? now, condition: condition, threshold: rule.threshold, hysteresis: rule.hysteresis)
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
