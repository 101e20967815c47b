package import Logging
package import PlumCore
package import PlumDaemonConfig
internal import PlumHardware
package import PlumProtocol
package import PlumSensors
package import PlumStore

/// The daemon's heart, which only keeps order: one ``SensorChannel`` per sensor, fed by the
/// samplers, and the requests of clients, each carried out in turn.
///
/// The channels decide (weights, alerts, cues, zero and tare, which waits end); the station
/// publishes what they decide, answers the waits, and saves zero and tare. An actor, so each
/// channel changes in one place and in order. It never waits on a client: reports go to a
/// ``ReportPublisher`` that drops a slow client's oldest messages.
package actor Station {
    /// How long a capture may wait for the load to be stable.
    package let captureTimeout: Duration
    /// Raw samples per `RAW` report, at most; a batch also closes after ``rawBatchWindow``.
    package let rawBatchLimit = 16
    package let rawBatchWindow: UInt64 = 100_000_000

    /// The replies of what waits on the readings: MT-SICS `S`, `Z`, `T`, `SI` after a zero,
    /// `SIR`, a calibration's capture.
    var waits = WaitRegistry()
    /// Every sensor's channel, in order, and which pan is the heaviest.
    var channels: ChannelSet
    /// Each sensor's sampler thread, for its state and statistics in `?DEVICES`: the channels
    /// are values and hold no thread.
    var samplers: [String: Sampler] = [:]
    let publisher: any ReportPublisher
    /// The buzzer or haptic output, if one is configured.
    var cueSink: (any CueSink)?
    let calibrationStore: CalibrationStore
    /// Each sensor's zero and tare, kept beside its calibration over a restart.
    let zeroTareStore: ZeroTareStore
    /// Alert values and named tares set at runtime, kept beside the calibrations (``SettingsRequests``).
    let settingsStore: RuntimeSettingsStore
    var runtime: RuntimeSettings
    /// The `[[alert]]` rules as the configuration has them, before the runtime values (``RuntimeAlerts``).
    var configuredAlerts: [AlertSettings]
    /// Each sensor's recognition of a saved container on its empty pan (``ContainerRecognizer``).
    var recognizers: [String: ContainerRecognizer] = [:]
    /// The weighing sessions, saved beside zero and tare (``SessionKeeper``).
    var sessions: SessionKeeper
    /// When the station was made, as the daemon started: `?DEVICES` reports the uptime from it.
    let started = SystemMonotonicClock().now()
    /// This run's count of starts and how the last one ended (``DaemonRuns``); nil when the
    /// state directory could not keep it.
    var runs: DaemonRuns.Record?
    /// Whether saves to the state directory work now; a full disk is logged once (``StateSaves``).
    var saves = StateSaves()
    let logger: Logger

    /// Builds a channel per configured sensor (``ChannelSet/init(_:calibrations:zeroTares:raw:log:)``).
    /// - Throws: ``Refusal`` when the scale settings cannot make an engine.
    package init(
        configuration: PlumConfiguration, store: CalibrationStore, publisher: any ReportPublisher,
        captureTimeout: Duration = .seconds(20), logger: Logger = Logger(label: "plumscaled.station")
    ) throws(Refusal) {
        self.publisher = publisher
        self.calibrationStore = store
        self.captureTimeout = captureTimeout
        self.logger = logger
        zeroTareStore = ZeroTareStore(directory: store.directory)
        settingsStore = RuntimeSettingsStore(directory: store.directory)
        var log: [(level: Logger.Level, message: String)] = []
        var configuration = configuration
        configuredAlerts = configuration.alerts
        (runtime, configuration.alerts) = RuntimeAlerts.start(configuration.alerts, store: settingsStore, log: &log)
        var saved: [String: SavedSensorState] = [:]
        for sensor in configuration.sensors where saved[sensor.name] == nil {
            saved[sensor.name] = SavedSensorState.load(sensor, calibrations: store, zeroTares: zeroTareStore)
        }
        channels = try ChannelSet(
            configuration, saved: saved, raw: RawBatcher(limit: rawBatchLimit, window: rawBatchWindow), log: &log)
        sessions = SessionKeeper(
            store: SessionStore(directory: store.directory), classes: try WeightClasses(configuration.classes),
            log: &log)
        Self.restoreItemSettings(runtime, into: &channels, log: &log)
        if let running = sessions.book.running {
            // A session that goes on goes on numbering, and knows what it left on the pan.
            channels[running.sensor]?.items?.detector.resume(
                onPan: running.session.weighedOnPan, lastItem: running.session.lastNumber)
        }
        for line in log { logger.log(level: line.level, "\(line.message)") }
    }

    /// Puts reloaded `[scale]` settings into use (``ChannelSet/applyScaleSettings(of:)``).
    /// - Returns: what happened, for the log and systemd's STATUS=.
    package func applyScaleSettings(of configuration: PlumConfiguration) -> String {
        let reload = channels.applyScaleSettings(of: configuration)
        for capture in reload.captures { waits.resumeCapture(capture.token, capture.reply) }
        for line in reload.log { logger.notice("\(line)") }
        return reload.summary
    }

    /// The configured sensor names, in order.
    package var sensorNames: [String] { channels.order }

    func entry(_ name: String) -> SensorChannel? { channels[name] }
    /// A zero or point step of `name` waits for its stable capture.
    func isCapturing(_ name: String) -> Bool { channels[name]?.calibration.pending != nil }

    /// Runs `body` on the channel of `name` and keeps what it changed, saving its zero and
    /// tare when they changed; nil for an unknown name.
    func update<Result>(_ name: String, _ body: (inout SensorChannel) -> Result) -> Result? {
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
    private func saveZeroTare(_ channel: inout SensorChannel) -> CalibrationStoreError? {
        channel.zeroTareToSave = false
        guard let state = channel.engine.zeroTareState else { return nil }
        let result = zeroTareStore.save(state, for: channel.engine.sensor)
        if case .success = result { channel.engine.markZeroTareSaved() }
        return noteSave("\(channel.name): zero and tare", result)
    }

    /// Logs what a save to the state directory tells: the first failure of a kind and the first
    /// success after failures (``StateSaves``). - Returns: the failure, or nil.
    func noteSave(_ what: String, _ result: Result<Void, CalibrationStoreError>) -> CalibrationStoreError? {
        switch result {
        case .success:
            if let line = saves.succeeded(what) { logger.notice("\(line)") }
            return nil
        case .failure(let error):
            if let line = saves.failed(what, error) { logger.error("\(line)") }
            return error
        }
    }

    /// `?TARE` or `?ZERO` on `name`, kept only once saved: on a full disk the engine is put back
    /// as it was and the reply says why, so the scale never shows a tare a restart would lose.
    func savedCommand(_ name: String, _ action: WeighingAction) -> Report {
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

    /// Puts a calibration into use without saving it (a simulated chip's exact one, say).
    package func install(_ calibration: Calibration, on name: String) -> Result<Void, Refusal> {
        update(name) { $0.engine.install(calibration) }
            ?? .failure(Refusal(.invalidConfiguration, "no sensor named \(name)", hint: "check the configuration"))
    }

    /// Whether `name` has a calibration in use.
    package func isCalibrated(_ name: String) -> Bool { channels[name]?.engine.calibration != nil }

    /// Re-reads every sensor's calibration from the store (after a rollback by hand, say): a
    /// one-line summary for systemd's status.
    package func reloadCalibrations() -> String {
        let store = calibrationStore
        let notes = sensorNames.compactMap { name in
            let stored = channels[name].map { store.load($0.engine.sensor) }
            return stored.flatMap { stored in update(name) { $0.reloadCalibration(stored) } ?? nil }
        }
        let calibrated = channels.inOrder.filter { $0.engine.calibration != nil }.count
        return (["\(sensorNames.count) sensors, \(calibrated) calibrated"] + notes).joined(separator: "; ")
    }

    /// Sends every cue to `sink` too (the buzzer line), besides the `CUE` reports.
    package func attachCueOutput(_ sink: any CueSink) { cueSink = sink }

    /// Lets `?DEVICES` report the sampler's state and statistics.
    package func attach(_ sampler: Sampler) {
        guard channels[sampler.name] != nil else { return }
        samplers[sampler.name] = sampler
    }

    // MARK: - Samples in

    /// Takes one event from a sensor's sampler to its channel, and carries out what follows.
    package func handle(_ event: Sampler.Event, from name: String) {
        let outputs = update(name) { channel in
            switch event {
            case .state(let state):
                let now = SystemMonotonicClock().now()
                return channel.take(state, now: now, wallTime: WallClock.seconds(at: now), heaviest: &channels.heaviest)
            case .sample(let sample):
                return channel.take(sample, wallTime: WallClock.seconds(at: sample.time), heaviest: &channels.heaviest)
            }
        }
        guard let outputs else { return }
        SettingsRequests.recognizeContainer(on: name, self)
        for line in outputs.log { logger.log(level: line.level, "\(line.message)") }
        for report in outputs.leading { publisher.publishEvent(report, sensor: name) }
        if let raw = outputs.raw { publisher.publishRaw(raw) }
        waits.answer(outputs, sensor: name)
        if let weight = outputs.weight {
            if weight.report.countReferenceUpdated { keepUpdatedCountReference(of: name) }
            publisher.publishWeight(weight.report, frame: weight.frame)
        }
        for report in outputs.trailing { publisher.publishEvent(report, sensor: name) }
        for item in outputs.items { publishItem(item.event, item.report) }
        for cue in outputs.cues { cueSink?.cue(cue, sensor: name) }
    }

    // MARK: - Alerts and watchers

    /// Every rule's `ALERT` state on `sensors` (all when empty), for a client that begins to watch.
    package func alertReports(sensors: [String]) -> [Report] {
        channels.alertReports(sensors: sensors, now: UTCTimestamp.epochSeconds())
    }

    /// Puts a reloaded file's `[[alert]]` rules into use (``AlertReload``); what changed.
    /// The values set at runtime stay while the file's own values for them stay (``RuntimeAlerts``).
    package func applyAlerts(_ settings: [AlertSettings]) -> String {
        configuredAlerts = settings
        return putAlertsIntoUse()
    }

    /// What a client that begins to watch `sensors` is told first, as gpsd sends `DEVICES`: every
    /// alert's state, then an unavailable `WEIGHT` for each sensor in an outage.
    package func watchReports(sensors: [String]) -> [Report] {
        let now = SystemMonotonicClock().now()
        return alertReports(sensors: sensors)
            + channels.outageReports(sensors: sensors, now: now, wallTime: WallClock.seconds(at: now))
    }

    // MARK: - Balance commands (MT-SICS) and the button

    /// The current reading of `name`, or nil; after a zero or tare, the next one (at most `timeout`).
    package func currentReading(of name: String, timeout: Duration = .seconds(1)) async -> Reading? {
        guard let channel = channels[name], channel.outage == nil else { return nil }
        guard channel.latestIsStale else { return channel.latest }
        let token = waits.newToken()
        return await withCheckedContinuation { continuation in
            waits.waitForNext(token, sensor: name, continuation)
            after(timeout) { WaitEnds.nextReading(token, on: $0) }
        }
    }

    /// The tare in use on `name`, in grams.
    package func tare(of name: String) -> Double? { channels[name]?.engine.tare }

    /// Carries out `action` on the first stable reading of `name` (``SensorChannel/answerAtOnce(_:)``,
    /// then in the turn of the reading that decides it), or gives up after `timeout`.
    package func whenStable(_ name: String, timeout: Duration, _ action: WeighingAction) async -> WeighingOutcome {
        guard let answer = update(name, { $0.answerAtOnce(action) }) else {
            return WeighingOutcome(unknownSensor: true)
        }
        if let answer { return answer }
        let token = waits.newToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                channels[name]?.waitForStable(token, action, timeout: timeout, from: SystemMonotonicClock().now())
                waits.waitForStable(token, sensor: name, continuation)
                // The readings' own clock decides the deadline; this covers a sensor that stops sending.
                after(timeout) { WaitEnds.stable(token, on: $0) }
            }
        } onCancel: {
            // `@` or a closed connection: stop waiting, and do not zero or tare later.
            after(.zero) { WaitEnds.stable(token, on: $0) }
        }
    }

    /// Zeroes or tares `name` now, on the latest reading, stable or not (MT-SICS `ZI`, `TI`).
    package func actNow(_ name: String, _ action: WeighingAction) -> WeighingOutcome {
        update(name) { $0.act(action, requireStable: false) } ?? WeighingOutcome(unknownSensor: true)
    }

    /// Sets a known tare on `name` (MT-SICS `TA <value> g`).
    package func presetTare(_ name: String, grams: Double) -> Result<Double, Refusal>? {
        update(name) { $0.presetTare(grams: grams) }
    }

    /// Removes the tare of `name` (MT-SICS `TAC`); false for an unknown name.
    package func clearTare(_ name: String) -> Bool { update(name) { $0.clearTare() } != nil }

    /// Every new reading of `name` from now on (the newest only for a slow consumer); a nil says
    /// the sensor stopped delivering, at once for one that delivers nothing now.
    package func readings(of name: String) -> AsyncStream<Reading?> {
        let (stream, continuation) = AsyncStream.makeStream(of: Reading?.self, bufferingPolicy: .bufferingNewest(1))
        if channels[name]?.outage != nil { continuation.yield(nil) }
        let token = waits.newToken()
        waits.follow(token, sensor: name, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { if let self { await WaitEnds.readingStream(token, on: self) } }
        }
        return stream
    }

    /// Runs `end` on the station after `timeout` (at once for zero): a wait's time-out, which
    /// does nothing when the wait was answered before.
    nonisolated func after(_ timeout: Duration, _ end: @escaping @Sendable (isolated Station) -> Void) {
        Task { [weak self] in
            if timeout > .zero { try? await Task.sleep(for: timeout) }
            if let self { await end(self) }
        }
    }

    /// A push button's press (``ButtonPress``): each sensor's outcome, in the order of `sensors`.
    @discardableResult
    package func buttonPressed(_ gesture: ButtonGesture, sensors: [String]) async -> [WeighingOutcome] {
        await ButtonPress.carryOut(gesture, sensors: sensors, on: self)
    }

    // MARK: - Requests

    /// The reply lines for `request`; an unknown sensor gets an error naming the ones there are.
    package func reply(to request: Request) async -> [Report] {
        switch request {
        case .poll: return [poll()]
        case .devices: return [devices()]
        case .tare(let sensor): return [savedCommand(sensor, .tare)]
        case .zero(let sensor): return [savedCommand(sensor, .zero)]
        case .calibrate(let calibrate): return await CalibrationRequests.reply(to: calibrate, on: self)
        case .session(let session): return [sessionReply(to: session)]
        case .count(let count): return [countReply(count)]
        case .check(let check): return [checkReply(check)]
        case .watch, .version: return [.error(message: "?WATCH and ?VERSION are answered by the connection itself")]
        case .client: return [.error(message: "?CLIENT is answered by the daemon's list of services")]
        case .presetTare, .useTare, .tares, .setAlert: return [SettingsRequests.reply(to: request, on: self)]
        }
    }

    func poll() -> Report { channels.poll(now: SystemMonotonicClock().now()) }
    func devices() -> Report {
        let uptime = SystemMonotonicClock().now().nanoseconds &- started.nanoseconds
        let samplers = self.samplers
        let report = channels.devices(uptime: uptime) { samplers[$0]?.status }
        guard case .devices(var devices) = report else { return report }
        devices.daemon = daemonStatus(uptime: Double(uptime) / 1e9)
        return .devices(devices)
    }
}
