package import PlumCore
package import PlumDaemonConfig

/// How each configured sensor's weighing engine is made: its settings (`[scale]`, its profile,
/// its own keys) and its stored calibration; and the log lines that say which settings run.
package enum SensorEngines {
    /// The engines' settings from `[scale]` (and `[cue] on_stable`), before any sensor's
    /// profile or own keys.
    package static func scaleConfiguration(of configuration: PlumConfiguration) throws(Refusal) -> ScaleConfiguration {
        try ScaleConfiguration(configuration.scale, stableWeightCue: configuration.cue?.onStable ?? false)
    }

    /// One sensor's engine settings: `[scale]`, then its profile, then its own keys.
    package static func scaleConfiguration(
        of configuration: PlumConfiguration, sensor: SensorConfiguration
    ) throws(Refusal) -> ScaleConfiguration {
        try configuration.engineConfiguration(for: sensor)
    }

    /// The engine of `sensor` with `scale` and its calibration from `store`; a missing or
    /// unusable calibration leaves it uncalibrated (raw only, flagged), with the store's reason.
    /// - Throws: ``Refusal`` when `scale` cannot make an engine.
    package static func engine(
        for sensor: SensorConfiguration, scale: ScaleConfiguration, calibration: Calibration?,
        uncalibratedReason reason: String?
    ) throws(Refusal) -> WeighingEngine {
        let identity = sensor.identity
        let kind = sensor.sensorKind
        do {
            return try WeighingEngine(
                sensor: identity, kind: kind, configuration: scale, calibration: calibration,
                uncalibratedReason: reason)
        } catch {
            // A stored calibration for another gain or kind: run uncalibrated and say why.
            return try WeighingEngine(
                sensor: identity, kind: kind, configuration: scale, calibration: nil,
                uncalibratedReason: "\(error.reason); \(error.hint)")
        }
    }

    /// `fsr1 (profile fsr402-10k-3v3): division 1 g, zero tracking off`, for logs.
    package static func describe(_ sensor: SensorConfiguration, _ scale: ScaleConfiguration) -> String {
        let profile = sensor.profile.map { " (profile \($0.name))" } ?? ""
        return "\(sensor.name)\(profile): capacity \(grams(scale.capacity)), division \(scale.division), "
            + "zero tracking \(scale.zeroTracking ? "on" : "off")"
    }

    /// What a reload's `[scale]` settings are, for the log and systemd's STATUS=: the base
    /// settings, then each sensor with a profile or keys of its own.
    package static func summary(of configuration: PlumConfiguration, settings: [String: ScaleConfiguration]) -> String {
        let base = configuration.scale
        let tracking = base.tracksZero ? "on" : "off"
        let zeroTare = base.restoresTare ? "zero and tare carried over" : "zero and tare start afresh"
        let division = (try? Division(grams: base.division)).map { "\($0)" } ?? "\(base.division) g"
        var summary =
            "[scale] applied: capacity \(grams(base.capacity)), division \(division), "
            + "zero tracking \(tracking); \(zeroTare)"
        for sensor in configuration.sensors where sensor.profile != nil || !sensor.scale.isEmpty {
            guard let scale = settings[sensor.name] else { continue }
            summary += "; \(describe(sensor, scale))"
        }
        return summary
    }

    /// Grams for people: `250 g`, `12.5 g` (a tenth at most).
    package static func grams(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int64(rounded)) g" : "\(rounded) g"
    }
}
