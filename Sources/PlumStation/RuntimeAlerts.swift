internal import Logging
internal import PlumCore
internal import PlumDaemonConfig
internal import PlumProtocol
internal import PlumStore

/// Which wins between `plumscale.toml`'s `[[alert]]` values and those set at runtime
/// (`?ALERT`, Home Assistant's number entities).
///
/// A runtime value wins until the file's own value for it changes: each records the file's value
/// it replaced, and a file that now says something else is the newer decision. A value is also
/// dropped when cleared (`?ALERT` with `"clear":true`) and when its rule leaves the file. Only
/// the threshold and hysteresis are set at runtime; the rule's side, hold and cue are the file's.
enum RuntimeAlerts {
    /// The rules in `file` with the runtime values that still win; drops from `runtime` the values
    /// the file overrules now.
    /// - Returns: the rules to use, and a log line per value dropped (nothing changes `runtime`
    ///   when the list is empty).
    static func overlay(_ file: [AlertSettings], on runtime: inout RuntimeSettings) -> (
        rules: [AlertSettings], log: [String]
    ) {
        var log: [String] = []
        for name in runtime.alerts.keys.sorted() where !file.contains(where: { $0.name == name }) {
            runtime.alerts[name] = nil
            log.append("alert \(name): the values set at runtime are dropped: the rule left the configuration")
        }
        let rules = file.map { rule in
            guard var values = runtime.alerts[rule.name] else { return rule }
            var rule = rule
            if let threshold = values.threshold {
                if values.fileThreshold == rule.grams {
                    rule.grams = threshold
                } else {
                    values.threshold = nil
                    log.append(
                        "alert \(rule.name): threshold \(threshold) g set at runtime dropped: the configuration's "
                            + "changed from \(values.fileThreshold) g to \(rule.grams) g")
                }
            }
            if let hysteresis = values.hysteresis {
                if values.fileHysteresis == rule.hysteresisGrams {
                    rule.hysteresisGrams = hysteresis
                } else {
                    values.hysteresis = nil
                    log.append(
                        "alert \(rule.name): hysteresis \(hysteresis) g set at runtime dropped: the configuration's "
                            + "changed from \(values.fileHysteresis) g to \(rule.hysteresisGrams) g")
                }
            }
            runtime.alerts[rule.name] = values.threshold == nil && values.hysteresis == nil ? nil : values
            return rule
        }
        return (rules, log)
    }

    /// `runtime` with `change` made to the rule `file` (as the configuration has it).
    static func apply(_ change: AlertChange, to file: AlertSettings, in runtime: RuntimeSettings) -> RuntimeSettings {
        var runtime = runtime
        guard !change.clear else {
            runtime.alerts[file.name] = nil
            return runtime
        }
        var values =
            runtime.alerts[file.name]
            ?? RuntimeSettings.AlertValues(
                threshold: nil, hysteresis: nil, fileThreshold: file.grams, fileHysteresis: file.hysteresisGrams)
        if let threshold = change.threshold { (values.threshold, values.fileThreshold) = (threshold, file.grams) }
        if let hysteresis = change.hysteresis {
            (values.hysteresis, values.fileHysteresis) = (hysteresis, file.hysteresisGrams)
        }
        runtime.alerts[file.name] = values
        return runtime
    }
}

extension RuntimeAlerts {
    /// The saved runtime settings at the daemon's start, and the file's `alerts` with the runtime
    /// values that win; what it dropped or could not read goes to `log`.
    static func start(
        _ alerts: [AlertSettings], store: RuntimeSettingsStore, log: inout [(level: Logger.Level, message: String)]
    ) -> (RuntimeSettings, [AlertSettings]) {
        var runtime: RuntimeSettings
        switch store.load() {
        case .success(let saved): runtime = saved
        case .failure(let error):
            log.append((.warning, "runtime settings not used: \(error)"))
            runtime = RuntimeSettings()
        }
        let loaded = runtime
        let overlay = overlay(alerts, on: &runtime)
        log += overlay.log.map { (.notice, $0) }
        if runtime != loaded, case .failure(let error) = store.save(runtime) {
            log.append((.error, "runtime settings not saved: \(error)"))
        }
        return (runtime, overlay.rules)
    }
}
