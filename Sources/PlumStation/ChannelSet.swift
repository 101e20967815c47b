internal import Logging
internal import PlumCore
internal import PlumDaemonConfig
internal import PlumHardware
internal import PlumProtocol
internal import PlumSensors
internal import PlumStore

/// The station's sensors as one value: each one's ``SensorChannel`` in the configuration's
/// order, which pan is the heaviest, and the `[[alert]]` rules on sensors that do not run.
/// What concerns several channels at once — `?POLL`, `?DEVICES`, a reload, the alerts in the
/// file's order — is decided here, without the actor.
struct ChannelSet {
    private var channels: [String: SensorChannel] = [:]
    /// The configured sensor names, in order.
    private(set) var order: [String] = []
    /// `[[alert]]` rules on sensors that do not run here: reported, never evaluated.
    private var idleAlerts: [ChannelAlert] = []
    /// Which pan is the heaviest, on the stable displays (``HeaviestJudge``).
    var heaviest = HeaviestJudge(order: [])

    /// A channel per configured sensor, its engine with its saved calibration
    /// (``SensorEngines``) and the zero and tare saved before the last stop, judged on its
    /// first stable reading: `saved`, as the station read them (none for a sensor not in it).
    /// - Parameter log: collects what to log: the settings of sensors with their own, and
    ///   what became of saved zeros and tares.
    /// - Throws: ``Refusal`` when the scale settings cannot make an engine.
    init(
        _ configuration: PlumConfiguration, saved: [String: SavedSensorState], raw: RawBatcher,
        log: inout [(level: Logger.Level, message: String)]
    ) throws(Refusal) {
        let classes = try WeightClasses(configuration.classes)
        for (index, sensor) in configuration.sensors.enumerated() {
            let scale = try SensorEngines.scaleConfiguration(of: configuration, sensor: sensor)
            if sensor.profile != nil || !sensor.scale.isEmpty {
                log.append((.info, SensorEngines.describe(sensor, scale)))
            }
            let stored = saved[sensor.name] ?? SavedSensorState()
            var channel = SensorChannel(
                name: sensor.name, index: index, configuration: sensor,
                engine: try SensorEngines.engine(
                    for: sensor, scale: scale, calibration: stored.calibration,
                    uncalibratedReason: stored.uncalibratedReason),
                raw: raw)
            if let state = stored.zeroTare, let line = channel.restore(state) { log.append((.notice, line)) }
            if let problem = stored.zeroTareProblem { log.append((.warning, problem)) }
            channel.items = try ChannelItems(
                sensor: sensor.name, settings: sensor.items, classes: classes, engine: channel.engine)
            channels[sensor.name] = channel
            order.append(sensor.name)
        }
        assign(configuration.alerts.enumerated().map { ChannelAlert($1, position: $0) })
        heaviest = HeaviestJudge(order: order)
    }

    subscript(name: String) -> SensorChannel? {
        get { channels[name] }
        set { channels[name] = newValue }
    }

    /// Takes the channel of `name` out, to change it in place (no copy of its engine's buffers)
    /// and put it back with the subscript.
    mutating func takeOut(_ name: String) -> SensorChannel? { channels.removeValue(forKey: name) }

    /// The channels in the configuration's order.
    var inOrder: [SensorChannel] { order.compactMap { channels[$0] } }

    /// The error for a request that names no configured sensor, with the ones there are.
    func unknownSensor(_ name: String) -> Report {
        .error(message: "unknown sensor \"\(name)\"; sensors: " + order.map { "\"\($0)\"" }.joined(separator: ", "))
    }

    /// `?POLL` at `now` (``ReportBuilder/poll(_:heaviest:now:wallClock:)``).
    func poll(now: MonotonicInstant) -> Report {
        .poll(ReportBuilder.poll(inOrder, heaviest: heaviest.names, now: now, wallClock: WallClock.seconds(at:)))
    }

    /// `?DEVICES`, `uptime` nanoseconds after the daemon started, with each sampler's `status`.
    func devices(uptime: UInt64, status: (String) -> SamplerStatus?) -> Report {
        .devices(
            DevicesReport(
                devices: inOrder.map { ReportBuilder.device($0, status: status($0.name)) },
                uptime: Double(uptime / 100_000_000) / 10))
    }

    // MARK: - Reload of the settings

    /// What a reload of `[scale]` did: the summary for the log and systemd's STATUS=, the
    /// calibration captures it ended, and the log lines of restores it decided.
    struct ScaleReload {
        var summary = ""
        var captures: [(token: UInt64, reply: [Report])] = []
        var log: [String] = []
    }

    /// Puts new `[scale]` settings into use: each channel rebuilds its engine
    /// (``SensorChannel/reload(_:profile:)``); none does when a sensor's settings are refused.
    mutating func applyScaleSettings(of configuration: PlumConfiguration) -> ScaleReload {
        var settings: [String: ScaleConfiguration] = [:]
        for name in order {
            let sensor = configuration.sensors.first { $0.name == name } ?? channels[name]?.configuration
            guard let sensor else { continue }
            do {
                settings[name] = try SensorEngines.scaleConfiguration(of: configuration, sensor: sensor)
            } catch {
                return ScaleReload(summary: "[scale] not applied: \(name): \(error); the old settings stay")
            }
        }
        var result = ScaleReload()
        for name in order {
            guard let scale = settings[name], var channel = channels[name] else { continue }
            let profile = configuration.sensors.first { $0.name == name }.map { $0.profile?.name }
            let reloaded = channel.reload(scale, profile: profile)
            channels[name] = channel
            if let capture = reloaded.capture { result.captures.append(capture) }
            if let refusal = reloaded.refusal {
                result.summary = "[scale] not applied to \(name): \(refusal); the old settings stay"
                return result
            }
            if let line = reloaded.log { result.log.append(line) }
            heaviest.observe(name, nil)
        }
        result.summary = SensorEngines.summary(of: configuration, settings: settings)
        return result
    }

    // MARK: - Alerts

    /// Hands each rule to its sensor's channel, in the file's order; the rules on sensors that
    /// do not run here are kept aside.
    private mutating func assign(_ rules: [ChannelAlert]) {
        for name in order { channels[name]?.alerts = rules.filter { $0.state.rule.sensor == name } }
        idleAlerts = rules.filter { channels[$0.state.rule.sensor] == nil }
    }

    /// Every rule, in the file's order.
    var alertRules: [ChannelAlert] {
        (inOrder.flatMap(\.alerts) + idleAlerts).sorted { $0.position < $1.position }
    }

    /// Puts a reloaded file's `[[alert]]` rules into use (``AlertReload``) at wall-clock `now`.
    mutating func applyAlerts(_ settings: [AlertSettings], now: Double) -> AlertReload {
        let reload = AlertReload(settings, replacing: alertRules, now: now)
        assign(reload.rules)
        return reload
    }

    /// The current `ALERT` state of every rule on `sensors` (all when empty); `now` (wall-clock)
    /// stands in for the time of a rule that never changed.
    func alertReports(sensors: [String], now: Double) -> [Report] {
        alertRules.filter { sensors.isEmpty || sensors.contains($0.state.rule.sensor) }.map {
            .alert($0.report(now: now))
        }
    }

    /// An unavailable `WEIGHT` for each of `sensors` (all when empty) in an outage at `now`
    /// (wall-clock `wallTime`), which sends no reading that would tell it.
    func outageReports(sensors: [String], now: MonotonicInstant, wallTime: Double) -> [Report] {
        inOrder.filter { (sensors.isEmpty || sensors.contains($0.name)) && $0.outage != nil }
            .map { .weight(ReportBuilder.unavailableReport($0, now: now, wallTime: wallTime)) }
    }
}
