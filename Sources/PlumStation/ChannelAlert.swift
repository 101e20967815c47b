internal import PlumCore
internal import PlumDaemonConfig
internal import PlumHardware
internal import PlumProtocol

/// One `[[alert]]` rule as its sensor's channel keeps it: the engine's pure state machine, and
/// when it last changed, for the current state a new watcher is sent.
struct ChannelAlert: Sendable {
    var state: AlertState
    /// Where the rule stands among the configuration's `[[alert]]` tables: reports of several
    /// sensors' rules keep the file's order.
    var position = 0
    /// Wall-clock seconds of the last change; nil while it has not changed since the start.
    var changedAt: Double?

    init(_ settings: AlertSettings, position: Int) {
        self.position = position
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

/// Reloads: the `[[alert]]` rules follow the configuration file.
///
/// A rule whose name and settings are unchanged keeps its state (an active alert stays raised,
/// a hold goes on); a changed rule starts again clear, and a rule taken out is reported
/// `removed`, so no client keeps showing an alert nothing evaluates any more. New and changed
/// rules are reported in their state now.
struct AlertReload {
    /// The rules in use from now on, in the file's order.
    var rules: [ChannelAlert] = []
    /// The `ALERT` reports to send: the removed rules, then the new and changed ones.
    var reports: [AlertReport] = []
    /// What changed, for the log and systemd's STATUS=.
    var summary = ""
    /// Log lines for the removed rules.
    var log: [String] = []

    /// Compares `settings` (the reloaded file's rules) with `old`, at wall-clock `now`.
    init(_ settings: [AlertSettings], replacing old: [ChannelAlert], now: Double) {
        let fresh = settings.enumerated().map { ChannelAlert($1, position: $0) }
        var kept = 0
        var started: [String] = []
        for alert in fresh {
            if var previous = old.first(where: { $0.state.rule == alert.state.rule }) {
                previous.position = alert.position
                rules.append(previous)
                kept += 1
            } else {
                rules.append(alert)
                started.append(alert.state.rule.name)
            }
        }
        let names = Set(fresh.map(\.state.rule.name))
        let removed = old.filter { !names.contains($0.state.rule.name) }
        for alert in removed {
            let cleared = alert.state.isActive ? "; cleared" : ""
            log.append("alert \(alert.state.rule.name) removed from the configuration\(cleared)")
            reports.append(alert.report(now: now, removed: true))
        }
        for alert in rules where started.contains(alert.state.rule.name) { reports.append(alert.report(now: now)) }
        var parts = ["\(kept) kept"]
        if !started.isEmpty { parts.append("\(started.count) new or changed (\(started.joined(separator: ", ")))") }
        if !removed.isEmpty {
            parts.append("\(removed.count) removed (\(removed.map(\.state.rule.name).joined(separator: ", ")))")
        }
        summary = "[[alert]] rules: " + parts.joined(separator: ", ")
    }
}
