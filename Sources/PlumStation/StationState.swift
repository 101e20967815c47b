internal import Logging
internal import PlumCore
internal import PlumDaemonConfig
internal import PlumHardware
internal import PlumProtocol
internal import PlumStore

/// Everything the station knows and decides, as a value: the channels, the settings made at
/// runtime, the containers being recognised, the sessions, the record of runs and whether
/// saves work. Given a sample, a state or a request, it changes itself and returns what to
/// carry out (``StationEffects``: log lines, reports, the waits a reading ends, cues), which
/// ``Station``, the actor, does in order. It holds no thread, no continuation and no client.
///
/// Saves are made in the turn that asks for them, through ``files``, because their outcome
/// decides the reply: a tare that cannot be saved is not kept, a tare library that cannot be
/// saved is not changed (docs/RELIABILITY.md, "A full card").
struct StationState {
    /// The files the state is kept in, in the state directory.
    let files: StationFiles
    /// Every sensor's channel, in order, and which pan is the heaviest.
    var channels: ChannelSet
    var runtime: RuntimeSettings
    /// The `[[alert]]` rules as the configuration has them, before the runtime values (``RuntimeAlerts``).
    var configuredAlerts: [AlertSettings]
    /// Each sensor's recognition of a saved container on its empty pan (``ContainerRecognizer``).
    var recognizers: [String: ContainerRecognizer] = [:]
    /// The weighing sessions, saved beside zero and tare (``SessionKeeper``).
    var sessions: SessionKeeper
    /// This run's count of starts and how the last one ended (``DaemonRuns``); nil when the
    /// state directory could not keep it.
    var runs: DaemonRuns.Record?
    /// Whether saves to the state directory work now; a full disk is logged once (``StateSaves``).
    var saves = StateSaves()
    /// What was decided and not yet carried out (``takeEffects()``).
    private var effects = StationEffects()

    /// Reads what was saved and builds a channel per configured sensor
    /// (``ChannelSet/init(_:saved:raw:log:)``); what it read and decided goes to the log.
    /// - Throws: ``Refusal`` when the scale settings cannot make an engine.
    init(configuration: PlumConfiguration, files: StationFiles, raw: RawBatcher) throws(Refusal) {
        self.files = files
        var log: [(level: Logger.Level, message: String)] = []
        var configuration = configuration
        configuredAlerts = configuration.alerts
        (runtime, configuration.alerts) = RuntimeAlerts.start(configuration.alerts, store: files.settings, log: &log)
        var saved: [String: SavedSensorState] = [:]
        for sensor in configuration.sensors where saved[sensor.name] == nil {
            saved[sensor.name] = SavedSensorState.load(
                sensor, calibrations: files.calibrations, zeroTares: files.zeroTares)
        }
        channels = try ChannelSet(configuration, saved: saved, raw: raw, log: &log)
        sessions = SessionKeeper(store: files.sessions, classes: try WeightClasses(configuration.classes), log: &log)
        Self.restoreItemSettings(runtime, into: &channels, log: &log)
        if let running = sessions.book.running {
            // A session that goes on goes on numbering, and knows what it left on the pan.
            channels[running.sensor]?.items?.detector.resume(
                onPan: running.session.weighedOnPan, lastItem: running.session.lastNumber)
        }
        effects.log(log)
    }

    /// What was decided since the last call, to carry out now.
    mutating func takeEffects() -> StationEffects {
        defer { effects = StationEffects() }
        return effects
    }

    /// Hands what was decided over in `emptied`, an empty list the caller carried out before,
    /// and keeps that list's storage for the next turn: a sample costs no new array of effects.
    mutating func takeEffects(into emptied: inout StationEffects) { swap(&effects, &emptied) }

    mutating func log(_ level: Logger.Level, _ message: String) { effects.log(level, message) }
    mutating func publish(_ report: Report, sensor: String) { effects.publish(report, sensor: sensor) }

    // MARK: - Channels

    /// Runs `body` on the channel of `name` and keeps what it changed, saving its zero and
    /// tare when they changed; nil for an unknown name.
    mutating func update<Result>(_ name: String, _ body: (inout SensorChannel) -> Result) -> Result? {
        guard var channel = channels.takeOut(name) else { return nil }
        let result = body(&channel)
        if channel.zeroTareToSave { saveZeroTare(&channel) }
        channels[name] = channel
        return result
    }

    /// Saves the zero and tare of `channel` (``SensorChannel/zeroTareToSave``); a failure is
    /// logged (once while it lasts, ``StateSaves``) and the scale weighs on.
    /// - Returns: why it could not be saved, or nil.
    @discardableResult
    private mutating func saveZeroTare(_ channel: inout SensorChannel) -> CalibrationStoreError? {
        channel.zeroTareToSave = false
        guard let state = channel.engine.zeroTareState else { return nil }
        let result = files.zeroTares.save(state, for: channel.engine.sensor)
        if case .success = result { channel.engine.markZeroTareSaved() }
        return noteSave("\(channel.name): zero and tare", result)
    }

    /// Logs what a save to the state directory tells: the first failure of a kind and the first
    /// success after failures (``StateSaves``). - Returns: the failure, or nil.
    mutating func noteSave(_ what: String, _ result: Result<Void, CalibrationStoreError>) -> CalibrationStoreError? {
        switch result {
        case .success:
            if let line = saves.succeeded(what) { log(.notice, line) }
            return nil
        case .failure(let error):
            if let line = saves.failed(what, error) { log(.error, line) }
            return error
        }
    }

    /// `?TARE` or `?ZERO` on `name`, kept only once saved: on a full disk the engine is put back
    /// as it was and the reply says why, so the scale never shows a tare a restart would lose.
    mutating func savedCommand(_ name: String, _ action: WeighingAction) -> Report {
        guard var channel = channels.takeOut(name) else { return channels.unknownSensor(name) }
        let before = channel
        let reply = channel.command(action)
        if channel.zeroTareToSave, let error = saveZeroTare(&channel) {
            channels[name] = before
            let kind = action == .tare ? "TARE" : "ZERO"
            let again = action == .tare ? "tare again" : "zero again"
            return .command(
                CommandReply(
                    command: kind, sensor: name, ok: false, reason: "notSaved",
                    message: "\(action == .tare ? "tare" : "zero") not done: it could not be saved: "
                        + "\(error.path): \(error.message); \(error.hint), then \(again)"))
        }
        channels[name] = channel
        return reply
    }

    /// Re-reads every sensor's calibration from its file (after a rollback by hand, say): a
    /// one-line summary for systemd's status.
    mutating func reloadCalibrations() -> String {
        let store = files.calibrations
        let notes = channels.order.compactMap { name in
            let stored = channels[name].map { store.load($0.engine.sensor) }
            return stored.flatMap { stored in update(name) { $0.reloadCalibration(stored) } ?? nil }
        }
        let calibrated = channels.inOrder.filter { $0.engine.calibration != nil }.count
        return (["\(channels.order.count) sensors, \(calibrated) calibrated"] + notes).joined(separator: "; ")
    }

    // MARK: - Samples in

    /// Takes one event from a sensor's sampler to its channel, and decides what follows: the
    /// reports in their order, the waits it ends, the items, the cues.
    mutating func take(_ event: Sampler.Event, from name: String, now: MonotonicInstant) {
        // The heaviest pan is judged across the channels, so it is lent to this one's turn
        // (swapped out, not copied: a copy would copy its tables at every sample).
        var heaviest = HeaviestJudge(order: [])
        swap(&heaviest, &channels.heaviest)
        let outputs = update(name) { channel in
            switch event {
            case .state(let state):
                channel.take(state, now: now, wallTime: WallClock.seconds(at: now), heaviest: &heaviest)
            case .sample(let sample):
                channel.take(sample, wallTime: WallClock.seconds(at: sample.time), heaviest: &heaviest)
            }
        }
        channels.heaviest = heaviest
        guard let outputs else { return }
        recognizeContainer(on: name)
        effects.log(outputs.log)
        for report in outputs.leading { publish(report, sensor: name) }
        if let raw = outputs.raw { effects.append(.raw(raw)) }
        effects.append(.waits(outputs, sensor: name))
        if let weight = outputs.weight {
            if weight.report.countReferenceUpdated { keepUpdatedCountReference(of: name) }
            effects.append(.weight(weight.report, frame: weight.frame))
        }
        for report in outputs.trailing { publish(report, sensor: name) }
        for item in outputs.items { recordItem(item.event, item.report) }
        for cue in outputs.cues { effects.append(.cue(cue, sensor: name)) }
    }

    // MARK: - Alerts and watchers

    /// Every rule's `ALERT` state on `sensors` (all when empty), for a client that begins to watch.
    func alertReports(sensors: [String]) -> [Report] {
        channels.alertReports(sensors: sensors, now: UTCTimestamp.epochSeconds())
    }

    /// What a client that begins to watch `sensors` is told first, as gpsd sends `DEVICES`: every
    /// alert's state, then an unavailable `WEIGHT` for each sensor in an outage.
    func watchReports(sensors: [String], now: MonotonicInstant) -> [Report] {
        alertReports(sensors: sensors)
            + channels.outageReports(sensors: sensors, now: now, wallTime: WallClock.seconds(at: now))
    }

    // MARK: - Requests

    /// The reply to a request that needs no wait (all but `?CALIBRATE`'s captures, which the
    /// actor waits for); an unknown sensor gets an error naming the ones there are.
    mutating func reply(to request: Request, now: MonotonicInstant) -> Report {
        switch request {
        case .poll: channels.poll(now: now)
        case .tare(let sensor): savedCommand(sensor, .tare)
        case .zero(let sensor): savedCommand(sensor, .zero)
        case .session(let session): sessionReply(to: session)
        case .count(let count): countReply(count)
        case .check(let check): checkReply(check)
        case .presetTare, .useTare, .tares, .setAlert: settingsReply(to: request)
        case .devices, .calibrate:
            .error(message: "\(request.name) is answered by the station")
        case .watch, .version: .error(message: "?WATCH and ?VERSION are answered by the connection itself")
        case .client: .error(message: "?CLIENT is answered by the daemon's list of services")
        }
    }
}

/// The files the station keeps its state in, all in the state directory: calibrations, zeros
/// and tares, the settings made at runtime and the sessions (docs/architecture.md, "State on
/// the card").
struct StationFiles: Sendable {
    let calibrations: CalibrationStore
    let zeroTares: ZeroTareStore
    let settings: RuntimeSettingsStore
    let sessions: SessionStore

    /// The state directory.
    var directory: String { calibrations.directory }

    init(_ calibrations: CalibrationStore) {
        self.calibrations = calibrations
        zeroTares = ZeroTareStore(directory: calibrations.directory)
        settings = RuntimeSettingsStore(directory: calibrations.directory)
        sessions = SessionStore(directory: calibrations.directory)
    }
}
