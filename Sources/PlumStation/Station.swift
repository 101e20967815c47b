package import Logging
package import PlumDaemonConfig
package import PlumCore
internal import PlumDrivers
internal import PlumHardware
internal import PlumProtocol
internal import PlumSensors

/// The daemon's heart: one weighing engine per sensor, fed by the samplers, publishing what
/// clients watch and answering what they ask.
///
/// An actor, so the engines change in one place and in order; samplers hand it samples, the
/// transport hands it requests. It never waits on a client: reports go to a
/// ``ReportPublisher`` that drops a slow client's oldest messages.
package actor Station {
    /// One sensor as the station keeps it.
    struct Entry {
        let name: String
        let index: Int
        let configuration: SensorConfiguration
        /// The hardware profile whose settings the engine has now (a reload may change it).
        var profile: String?
        var engine: WeighingEngine
        var latest: Reading?
        var raw: RawBatcher
        var sampler: Sampler?
        var calibration: CalibrationSession
        /// A zero or tare has changed the engine since `latest` was computed: its net is old.
        var latestIsStale = false
        /// The saved zero and tare handed to the engine, until what became of them is logged.
        var restoring: ZeroTareState?
        /// When the sample behind `latest` was taken: reports of it carry this time, never the
        /// time they are asked for.
        var latestTime: MonotonicInstant?
        /// The sensor's state while it delivers no samples (not-ready, a fault, a replay's end):
        /// `latest` is then history, not a weight. Set by the sampler's state, cleared by the
        /// next sample, which is the only proof that the sensor is back.
        var outage: SensorState?

        /// The latest reading while it is current; nil during an outage, so that nothing weighs,
        /// zeroes, tares or ranks a pan on a reading from before it.
        var current: Reading? { outage == nil ? latest : nil }
    }

    /// How long a capture may wait for the load to be stable.
    package let captureTimeout: Duration
    /// Raw samples per `RAW` report, at most; a batch also closes after ``rawBatchWindow``.
    package let rawBatchLimit = 16
    package let rawBatchWindow: UInt64 = 100_000_000

    /// What waits on the readings: MT-SICS `S`, `Z`, `T`, `SI` after a zero, `SIR`.
    var waits = WaitRegistry()
    /// The `[[alert]]` rules and their states, in the configuration's order.
    var alerts: [StationAlert] = []

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    /// Which pan is the heaviest, on the stable displays (``HeaviestJudge``).
    var heaviest = HeaviestJudge(order: [])
    let publisher: any ReportPublisher
    /// The buzzer or haptic output, if one is configured.
    var cueSink: (any CueSink)?
    private let calibrationStore: CalibrationStore
    /// Each sensor's zero and tare, kept beside its calibration over a restart.
    let zeroTareStore: ZeroTareStore
    /// When the station was made, as the daemon started: `?DEVICES` reports the uptime from it.
    let started = SystemMonotonicClock().now()
    let logger: Logger

    /// Builds an engine per configured sensor, each with its stored calibration; a missing or
    /// unusable calibration leaves that sensor uncalibrated (raw only, flagged), with the
    /// store's reason, and the others unaffected. Each engine gets the zero and tare saved
    /// before the last stop (``ZeroTareStore``), judged on its first stable reading.
    /// - Throws: ``Refusal`` when the scale settings cannot make an engine.
    package init(
        configuration: PlumConfiguration, store: CalibrationStore, publisher: any ReportPublisher,
        captureTimeout: Duration = .seconds(20), logger: Logger = Logger(label: "plumscaled.station")
    ) throws(Refusal) {
        self.publisher = publisher
        self.calibrationStore = store
        self.captureTimeout = captureTimeout
        self.logger = logger
        let zeroTareStore = ZeroTareStore(directory: store.directory)
        self.zeroTareStore = zeroTareStore
        for (index, sensor) in configuration.sensors.enumerated() {
            let scale = try Self.scaleConfiguration(of: configuration, sensor: sensor)
            if sensor.profile != nil || !sensor.scale.isEmpty { logger.info("\(Self.describe(sensor, scale))") }
            let identity = sensor.identity
            let kind = sensor.sensorKind
            var calibration: Calibration?
            var reason: String?
            switch store.load(identity) {
            case .success(let stored?): calibration = stored
            case .success(nil): reason = "not calibrated yet: plumscale calibrate --sensor \(sensor.name)"
            case .failure(let error): reason = error.description
            }
            var engine: WeighingEngine
            do {
                engine = try WeighingEngine(
                    sensor: identity, kind: kind, configuration: scale, calibration: calibration,
                    uncalibratedReason: reason)
            } catch {
                // A stored calibration for another gain or kind: run uncalibrated and say why.
                engine = try WeighingEngine(
                    sensor: identity, kind: kind, configuration: scale, calibration: nil,
                    uncalibratedReason: "\(error.reason); \(error.hint)")
            }
            var restoring: ZeroTareState?
            switch zeroTareStore.load(identity) {
            case .success(let saved?):
                restoring = Self.restore(saved, into: &engine, sensor: sensor.name, logger: logger)
            case .success(nil):
                break
            case .failure(let error):
                logger.warning("\(sensor.name): saved zero and tare not used: \(error)")
            }
            entries[sensor.name] = Entry(
                name: sensor.name, index: index, configuration: sensor, profile: sensor.profile?.name, engine: engine,
                raw: RawBatcher(limit: rawBatchLimit, window: rawBatchWindow),
                calibration: CalibrationSession(sensor: sensor.name), restoring: restoring)
            order.append(sensor.name)
        }
        alerts = configuration.alerts.map(StationAlert.init)
        heaviest = HeaviestJudge(order: order)
    }

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

    /// Puts new `[scale]` settings into use (a reload): each engine is rebuilt with them and
    /// keeps its calibration; its zero, tare and warm-up are carried over (judged on the load
    /// only when they no longer fit; not with `restore_tare = false`), and a calibration step that is
    /// waiting is ended, since its points were taken on the old settings.
    /// - Returns: what happened, for the log and systemd's STATUS=.
    package func applyScaleSettings(of configuration: PlumConfiguration) -> String {
        var settings: [String: ScaleConfiguration] = [:]
        for name in order {
            let sensor = configuration.sensors.first { $0.name == name } ?? entries[name]?.configuration
            guard let sensor else { continue }
            do {
                settings[name] = try Self.scaleConfiguration(of: configuration, sensor: sensor)
            } catch {
                return "[scale] not applied: \(name): \(error); the old settings stay"
            }
        }
        for name in order {
            guard var entry = entries[name], let scale = settings[name] else { continue }
            entry.calibration.abandon(
                "the configuration was reloaded; begin the calibration again", engine: entry.engine)
            let calibration = entry.engine.calibration
            let old = entry.engine
            do {
                entry.engine = try WeighingEngine(
                    sensor: entry.engine.sensor, kind: entry.engine.kind, configuration: scale,
                    calibration: calibration,
                    uncalibratedReason: entry.engine.uncalibratedReason)
            } catch {
                return "[scale] not applied to \(name): \(error); the old settings stay"
            }
            carryZeroTare(from: old, into: &entry)
            if let outage = entry.outage { entry.engine.interrupt(because: outage.description) }
            if let sensor = configuration.sensors.first(where: { $0.name == name }) {
                entry.profile = sensor.profile?.name
            }
            entry.latest = nil
            entries[name] = entry
            heaviest.observe(name, nil)
        }
        let base = configuration.scale
        let tracking = base.zeroTracking ? "on" : "off"
        let zeroTare = base.restoreTare ? "zero and tare carried over" : "zero and tare start afresh"
        let division = (try? Division(grams: base.divisionGrams)).map { "\($0)" } ?? "\(base.divisionGrams) g"
        var summary =
            "[scale] applied: capacity \(Self.grams(base.capacityGrams)), division \(division), "
            + "zero tracking \(tracking); \(zeroTare)"
        for name in order {
            guard let scale = settings[name], let sensor = configuration.sensors.first(where: { $0.name == name }),
                sensor.profile != nil || !sensor.scale.isEmpty
            else { continue }
            summary += "; \(Self.describe(sensor, scale))"
        }
        return summary
    }

    /// `fsr1 (profile fsr402-10k-3v3): division 1 g, zero tracking off`, for logs.
    static func describe(_ sensor: SensorConfiguration, _ scale: ScaleConfiguration) -> String {
        let profile = sensor.profile.map { " (profile \($0.name))" } ?? ""
        return "\(sensor.name)\(profile): capacity \(grams(scale.capacity)), division \(scale.division), "
            + "zero tracking \(scale.zeroTracking ? "on" : "off")"
    }

    /// The configured sensor names, in order.
    package var sensorNames: [String] { order }

    func entry(_ name: String) -> Entry? { entries[name] }
    func store(_ entry: Entry) { entries[entry.name] = entry }
    /// A zero or point step of `name` waits for its stable capture.
    func isCapturing(_ name: String) -> Bool { entries[name]?.calibration.pending != nil }

    func waitForCapture(_ name: String, _ capture: CalibrationSession.PendingCapture) {
        entries[name]?.calibration.wait(capture)
    }
    func newToken() -> UInt64 { waits.newToken() }

    /// Saves a committed calibration; the path written, or why not.
    func storeCalibration(_ calibration: Calibration) -> Result<String, CalibrationStoreError> {
        calibrationStore.save(calibration).map { calibrationStore.path(for: calibration.sensor) }
    }

    /// Makes the previous saved calibration of `entry`'s sensor the one in use again.
    func rollBackCalibration(_ engine: inout WeighingEngine) -> Result<Calibration, CalibrationSession.RollbackRefused>
    {
        switch calibrationStore.rollback(engine.sensor) {
        case .failure(let error):
            return .failure(CalibrationSession.RollbackRefused(message: error.description))
        case .success(let previous):
            if case .failure(let refusal) = engine.install(previous) {
                return .failure(
                    CalibrationSession.RollbackRefused(
                        message: "the earlier calibration does not fit this sensor now: \(refusal)"))
            }
            return .success(previous)
        }
    }

    /// Puts a calibration into use without saving it (a simulated chip's exact transfer
    /// function, say); refused when it does not fit the sensor.
    package func install(_ calibration: Calibration, on name: String) -> Result<Void, Refusal> {
        guard var entry = entries[name] else {
            return .failure(Refusal(.invalidConfiguration, "no sensor named \(name)", hint: "check the configuration"))
        }
        let result = entry.engine.install(calibration)
        entries[name] = entry
        return result
    }

    /// Whether `name` has a calibration in use.
    package func isCalibrated(_ name: String) -> Bool { entries[name]?.engine.calibration != nil }

    /// Re-reads every sensor's calibration from the store (after a rollback by hand, say).
    /// - Returns: a one-line summary for systemd's status.
    package func reloadCalibrations() -> String {
        var calibrated = 0
        var notes: [String] = []
        for name in order {
            guard var entry = entries[name] else { continue }
            switch calibrationStore.load(entry.engine.sensor) {
            case .success(let stored?) where stored == entry.engine.calibration:
                break  // unchanged: keep zero and tare
            case .success(let stored?):
                if case .failure(let refusal) = entry.engine.install(stored) {
                    notes.append("\(name): \(refusal)")
                } else {
                    saveZeroTare(&entry)
                }
            case .success(nil):
                break
            case .failure(let error):
                notes.append("\(name): \(error)")
            }
            if entry.engine.calibration != nil { calibrated += 1 }
            entries[name] = entry
        }
        return (["\(order.count) sensors, \(calibrated) calibrated"] + notes).joined(separator: "; ")
    }

    /// Sends every cue to `sink` too (the buzzer line), besides the `CUE` reports.
    package func attachCueOutput(_ sink: any CueSink) {
        cueSink = sink
    }

    /// Lets `?DEVICES` report the sampler's state and statistics.
    package func attach(_ sampler: Sampler) {
        entries[sampler.name]?.sampler = sampler
    }

    // MARK: - Samples in

    /// Takes one event from a sensor's sampler.
    package func handle(_ event: Sampler.Event, from name: String) {
        guard var entry = entries[name] else { return }
        switch event {
        case .state(let state):
            publisher.publishEvent(
                .state(StateReport(sensor: name, state: state.name, reason: state.reason)), sensor: name)
            if state != .ok && state != .starting { beginOutage(&entry, state) }
        case .sample(let sample):
            var flags: EngineInput.Flags = []
            if sample.flags.contains(.overRange) { flags.insert(.overRange) }
            if sample.flags.contains(.underRange) { flags.insert(.underRange) }
            let reading = entry.engine.process(
                EngineInput(signal: sample.signal, time: sample.time.nanoseconds, flags: flags))
            let outageEnded = entry.outage != nil
            entry.latest = reading
            entry.latestTime = sample.time
            entry.outage = nil
            entry.latestIsStale = false
            if outageEnded { logger.notice("\(name): samples again; weighing resumes on a fresh stable reading") }
            keepZeroTare(&entry)
            batchRaw(&entry, sample)
            if let point = reading.capturedPoint { entry.calibration.captured(point, engine: entry.engine) }
            entries[name] = entry
            heaviest.observe(name, reading)
            serveWaiters(name, reading)
            publishWeight(entry, reading, sampleTime: sample.time)
            evaluateAlerts(name, reading, sampleTime: sample.time)
            for cue in reading.cues {
                publishCue(name, cue)
                cueSink?.cue(cue, sensor: name)
            }
        }
    }

    private func batchRaw(_ entry: inout Entry, _ sample: Sample) {
        if let report = entry.raw.add(sample, time: WallClock.seconds(at: sample.time), sensor: entry.name) {
            publisher.publishRaw(report)
        }
    }

    private func publishWeight(_ entry: Entry, _ reading: Reading, sampleTime: MonotonicInstant) {
        let heaviest = heaviestNames()
        let isHeaviest = heaviest.contains(entry.name)
        publisher.publishWeight(
            Self.weightReport(
                reading, sensor: entry.name, time: WallClock.seconds(at: sampleTime), heaviest: isHeaviest),
            frame: Self.frame(reading, index: entry.index, heaviest: isHeaviest))
    }

    private func publishCue(_ name: String, _ cue: Cue) {
        let report =
            switch cue {
            case .maxForce: CueReport(sensor: name, cue: "max-force")
            case .stableWeight(let grams): CueReport(sensor: name, cue: "stable-weight", grams: grams)
            case .alert: CueReport(sensor: name, cue: "alert")
            }
        publisher.publishEvent(.cue(report), sensor: name)
    }

    /// The sensors that are the heaviest loaded ones now (several on a tie, none when empty),
    /// judged on the stable displays; a sensor in an outage is not among them.
    func heaviestNames() -> Set<String> {
        switch heaviest.heaviest {
        case .none: return []
        case .sensor(let id): return [id]
        case .tie(let ids): return Set(ids)
        }
    }

    static func grams(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int64(rounded)) g" : "\(rounded) g"
    }
}

/// Maps monotonic instants to wall-clock seconds for reports: clients compare readings with
/// their own clocks, not with this machine's boot time.
enum WallClock {
    static func seconds(at instant: MonotonicInstant) -> Double {
        let now = SystemMonotonicClock().now()
        let age = Double(now.nanoseconds(since: instant)) / 1e9
        return ((UTCTimestamp.epochSeconds() - age) * 1e6).rounded() / 1e6
    }
}

extension Double? {
    /// The value when it is a number JSON can carry; NaN and infinities are sent as `null`.
    var finite: Double? { self.flatMap { $0.isFinite ? $0 : nil } }
}
