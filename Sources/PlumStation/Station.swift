package import Logging
package import PlumCore
package import PlumDaemonConfig
internal import PlumHardware
package import PlumProtocol
package import PlumSensors
package import PlumStore

/// The daemon's heart, which only keeps order: samples and requests go, one at a time, to the
/// station's state (``StationState``, a value that decides), and what it decided is carried out
/// here, in order (``StationEffects``): reports, log lines, cues, the waits a reading ends. Only
/// what an actor must hold lives here: the waits' continuations (``WaitRegistry``) and the
/// samplers' threads. It never waits on a client: the publisher drops a slow client's oldest.
package actor Station {
    /// How long a capture may wait for the load to be stable.
    package let captureTimeout: Duration
    /// Raw samples per `RAW` report, at most; a batch also closes after ``rawBatchWindow``.
    package let rawBatchLimit = 16
    package let rawBatchWindow: UInt64 = 100_000_000

    var state: StationState
    /// The effects being carried out; empty between turns (``carryOut()``).
    private var carrying = StationEffects()
    var waits = WaitRegistry()
    /// Each sensor's sampler thread, for its state and statistics in `?DEVICES`.
    var samplers: [String: Sampler] = [:]
    let publisher: any ReportPublisher
    /// The buzzer or haptic output, if one is configured.
    var cueSink: (any CueSink)?
    /// When the station was made, as the daemon started: `?DEVICES` reports the uptime from it.
    let started = SystemMonotonicClock().now()
    let logger: Logger

    /// Reads the saved state from `store`'s directory and builds a channel per configured sensor.
    /// - Throws: ``Refusal`` when the scale settings cannot make an engine.
    package init(
        configuration: PlumConfiguration, store: CalibrationStore, publisher: any ReportPublisher,
        captureTimeout: Duration = .seconds(20), logger: Logger = Logger(label: "plumscaled.station")
    ) throws(Refusal) {
        self.publisher = publisher
        self.captureTimeout = captureTimeout
        self.logger = logger
        state = try StationState(
            configuration: configuration, files: StationFiles(store),
            raw: RawBatcher(limit: rawBatchLimit, window: rawBatchWindow))
        for case .log(let level, let message) in state.takeEffects().list { logger.log(level: level, "\(message)") }
    }

    /// Carries out, in order, what the state decided since the last time. The two lists of
    /// effects are swapped each turn, not made anew, so a sample allocates none.
    private func carryOut() {
        state.takeEffects(into: &carrying)
        defer { carrying.removeAll() }
        for effect in carrying.list {
            switch effect {
            case .log(let level, let message): logger.log(level: level, "\(message)")
            case .event(let report, let sensor): publisher.publishEvent(report, sensor: sensor)
            case .raw(let report): publisher.publishRaw(report)
            case .weight(let report, let frame): publisher.publishWeight(report, frame: frame)
            case .waits(let outputs, let sensor): waits.answer(outputs, sensor: sensor)
            case .cue(let cue, let sensor): cueSink?.cue(cue, sensor: sensor)
            }
        }
    }

    /// Runs `body` on the state and carries out what it decided.
    private func decide<Result>(_ body: (inout StationState) -> Result) -> Result {
        defer { carryOut() }
        return body(&state)
    }

    // MARK: - Set-up and reloads

    /// Puts reloaded `[scale]` settings into use; what happened, for systemd's STATUS=.
    package func applyScaleSettings(of configuration: PlumConfiguration) -> String {
        let reload = decide { $0.applyScaleSettings(of: configuration) }
        for capture in reload.captures { waits.resumeCapture(capture.token, capture.reply) }
        return reload.summary
    }

    /// Puts a reloaded file's `[[alert]]` rules into use (``AlertReload``, ``RuntimeAlerts``); what changed.
    package func applyAlerts(_ settings: [AlertSettings]) -> String {
        decide { state in
            state.configuredAlerts = settings
            return state.putAlertsIntoUse()
        }
    }

    /// Re-reads every sensor's calibration from its file: a one-line summary for systemd's status.
    package func reloadCalibrations() -> String { decide { $0.reloadCalibrations() } }

    /// Puts a calibration into use without saving it (a simulated chip's exact one, say).
    package func install(_ calibration: Calibration, on name: String) -> Result<Void, Refusal> {
        decide { $0.update(name) { $0.engine.install(calibration) } }
            ?? .failure(Refusal(.invalidConfiguration, "no sensor named \(name)", hint: "check the configuration"))
    }

    /// Sends every cue to `sink` too (the buzzer line), besides the `CUE` reports.
    package func attachCueOutput(_ sink: any CueSink) { cueSink = sink }

    /// Lets `?DEVICES` report the sampler's state and statistics.
    package func attach(_ sampler: Sampler) {
        guard state.channels[sampler.name] != nil else { return }
        samplers[sampler.name] = sampler
    }

    /// Keeps this run's record of starts for `?DEVICES` (``DaemonRuns/begin(directory:)``).
    package func record(_ runs: DaemonRuns.Record) { state.runs = runs }

    // MARK: - What the others ask

    /// The configured sensor names, in order.
    package var sensorNames: [String] { state.channels.order }
    /// Whether `name` has a calibration in use.
    package func isCalibrated(_ name: String) -> Bool { state.channels[name]?.engine.calibration != nil }
    /// The tare in use on `name`, in grams.
    package func tare(of name: String) -> Double? { state.channels[name]?.engine.tare }
    /// The running session, for tests and `?DEVICES`-like views.
    package var runningSession: SessionBook.Entry? { state.sessions.book.running }
    var runtime: RuntimeSettings { state.runtime }
    func entry(_ name: String) -> SensorChannel? { state.channels[name] }
    /// A zero or point step of `name` waits for its stable capture.
    func isCapturing(_ name: String) -> Bool { state.channels[name]?.calibration.pending != nil }
    func poll() -> Report { state.channels.poll(now: SystemMonotonicClock().now()) }

    /// Every rule's `ALERT` state on `sensors` (all when empty), for a client that begins to watch.
    package func alertReports(sensors: [String]) -> [Report] { state.alertReports(sensors: sensors) }

    /// What a client that begins to watch `sensors` is told first (``StationState/watchReports(sensors:now:)``).
    package func watchReports(sensors: [String]) -> [Report] {
        state.watchReports(sensors: sensors, now: SystemMonotonicClock().now())
    }

    // MARK: - Samples and requests in

    /// Takes one event from a sensor's sampler to its channel, and carries out what follows.
    package func handle(_ event: Sampler.Event, from name: String) {
        decide { $0.take(event, from: name, now: SystemMonotonicClock().now()) }
    }

    /// The reply lines for `request`; an unknown sensor gets an error naming the ones there are.
    package func reply(to request: Request) async -> [Report] {
        switch request {
        case .devices: return [devices()]
        case .calibrate(let step) where step.step == .zero || step.step == .point: return await capture(step)
        case .calibrate(let step): return [decide { $0.calibrationReply(step) }]
        default: return [decide { $0.reply(to: request, now: SystemMonotonicClock().now()) }]
        }
    }

    func devices() -> Report {
        let samplers = self.samplers
        return state.devices(uptime: SystemMonotonicClock().now().nanoseconds &- started.nanoseconds) {
            samplers[$0]?.status
        }
    }

    /// A calibration's zero or point: waits for the reading that gives a stable load, or the timeout.
    private func capture(_ request: CalibrationRequest) async -> [Report] {
        let token = waits.newToken()
        let name = request.sensor
        let refusal = decide { $0.update(name) { $0.startCapture(request.step, grams: request.grams, token: token) } }
        guard let refusal else { return [state.channels.unknownSensor(name)] }
        if let refusal { return [refusal] }
        let timeout = captureTimeout
        return await withCheckedContinuation { continuation in
            waits.waitForCapture(token, continuation)
            after(timeout) { station in
                let reply = station.decide { $0.update(name) { $0.expireCapture(token, timeout: timeout) } } ?? nil
                if let reply { station.waits.resumeCapture(token, reply) }
            }
        }
    }

    // MARK: - Balance commands (MT-SICS) and the button

    /// The current reading of `name`, or nil; after a zero or tare, the next one (at most `timeout`).
    package func currentReading(of name: String, timeout: Duration = .seconds(1)) async -> Reading? {
        guard let channel = state.channels[name], channel.outage == nil else { return nil }
        guard channel.latestIsStale else { return channel.latest }
        let token = waits.newToken()
        return await withCheckedContinuation { continuation in
            waits.waitForNext(token, sensor: name, continuation)
            after(timeout) { station in
                // No reading came in time: the old one.
                guard let waiter = station.waits.endNextWait(token) else { return }
                waiter.reply.resume(returning: station.state.channels[waiter.sensor]?.current)
            }
        }
    }

    /// Carries out `action` on the first stable reading of `name` (``SensorChannel/answerAtOnce(_:)``,
    /// then in the turn of the reading that decides it), or gives up after `timeout`.
    package func whenStable(_ name: String, timeout: Duration, _ action: WeighingAction) async -> WeighingOutcome {
        guard let answer = decide({ $0.update(name, { $0.answerAtOnce(action) }) }) else {
            return WeighingOutcome(unknownSensor: true)
        }
        if let answer { return answer }
        let token = waits.newToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.channels[name]?.waitForStable(token, action, timeout: timeout, from: SystemMonotonicClock().now())
                waits.waitForStable(token, sensor: name, continuation)
                // The readings' own clock decides the deadline; this covers a sensor that stops sending.
                after(timeout) { $0.endStableWait(token) }
            }
        } onCancel: {
            // `@` or a closed connection: stop waiting, and do not zero or tare later.
            after(.zero) { $0.endStableWait(token) }
        }
    }

    /// Ends a stable wait that timed out or was cancelled; nothing for one answered before.
    private func endStableWait(_ token: UInt64) {
        guard let name = waits.sensor(ofStableWait: token),
            let outcome = decide({ $0.update(name, { $0.endWait(token) }) }) ?? nil
        else { return }
        waits.resumeStable(token, outcome)
    }

    /// Zeroes or tares `name` now, on the latest reading, stable or not (MT-SICS `ZI`, `TI`).
    package func actNow(_ name: String, _ action: WeighingAction) -> WeighingOutcome {
        decide { $0.update(name) { $0.act(action, requireStable: false) } } ?? WeighingOutcome(unknownSensor: true)
    }

    /// Sets a known tare on `name` (MT-SICS `TA <value> g`).
    package func presetTare(_ name: String, grams: Double) -> Result<Double, Refusal>? {
        decide { $0.update(name) { $0.presetTare(grams: grams) } }
    }

    /// Removes the tare of `name` (MT-SICS `TAC`); false for an unknown name.
    package func clearTare(_ name: String) -> Bool { decide { $0.update(name) { $0.clearTare() } } != nil }

    /// Every new reading of `name` from now on (the newest only for a slow consumer); a nil says
    /// the sensor stopped delivering, at once for one that delivers nothing now.
    package func readings(of name: String) -> AsyncStream<Reading?> {
        let (stream, continuation) = AsyncStream.makeStream(of: Reading?.self, bufferingPolicy: .bufferingNewest(1))
        if state.channels[name]?.outage != nil { continuation.yield(nil) }
        let token = waits.newToken()
        waits.follow(token, sensor: name, continuation)
        continuation.onTermination = { [weak self] _ in Task { await self?.stopFollowing(token) } }
        return stream
    }

    /// Forgets a stream of readings whose consumer has gone.
    private func stopFollowing(_ token: UInt64) { waits.stopFollowing(token) }

    /// A push button's press: a short press tares `sensors`, a long press zeroes them, each on
    /// its next stable reading (within 10 s), as MT-SICS `T` and `Z` do, since the hand that
    /// pressed has usually shaken the pan. Each outcome, in the order of `sensors`.
    @discardableResult
    package func buttonPressed(_ gesture: ButtonGesture, sensors: [String]) async -> [WeighingOutcome] {
        let action: WeighingAction = gesture == .short ? .tare : .zero
        logger.notice(
            "button: \(gesture) press, \(action == .tare ? "tare" : "zero") \(sensors.joined(separator: ", "))")
        let outcomes = await withTaskGroup(of: (Int, WeighingOutcome).self) { group in
            for (index, sensor) in sensors.enumerated() {
                group.addTask { (index, await self.whenStable(sensor, timeout: .seconds(10), action)) }
            }
            var byIndex: [Int: WeighingOutcome] = [:]
            for await (index, outcome) in group { byIndex[index] = outcome }
            return sensors.indices.compactMap { byIndex[$0] }
        }
        decide { $0.buttonPressed(gesture, sensors: sensors, outcomes: outcomes) }
        return outcomes
    }

    /// Runs `end` on the station after `timeout` (at once for zero): a wait's time-out.
    nonisolated func after(_ timeout: Duration, _ end: @escaping @Sendable (isolated Station) -> Void) {
        Task { [weak self] in
            if timeout > .zero { try? await Task.sleep(for: timeout) }
            if let self { await end(self) }
        }
    }
}
