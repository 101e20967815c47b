internal import Logging
internal import PlumCore
internal import PlumDaemonConfig
internal import PlumDrivers
internal import PlumHardware
internal import PlumProtocol

/// One sensor as the station keeps it, as a pure value: its engine and everything decided
/// with each of its samples — the reports, the alerts, the cues, which waits a reading ends,
/// and when its zero and tare must be saved.
///
/// Shaped like ``WeighingEngine``: state in, ``Outputs`` out, no actor, no clock, no I/O.
/// The station owns one per sensor, hands it samples and requests in order, and carries out
/// what comes back (publishes, resumes, saves, logs); the tests drive it directly.
struct SensorChannel {
    let name: String
    let index: Int
    let configuration: SensorConfiguration
    /// The hardware profile whose settings the engine has now (a reload may change it).
    var profile: String?
    var engine: WeighingEngine
    var latest: Reading?
    var raw: RawBatcher
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
    /// This sensor's `[[alert]]` rules and their states.
    var alerts: [ChannelAlert] = []
    /// A zero or tare changed since it was last saved: the station saves it after this turn.
    var zeroTareToSave = false
    /// When zero tracking's move was last marked to save (``keepZeroTare(_:now:)``).
    var trackedZeroSavedAt: MonotonicInstant?
    /// Its item detection (docs/items.md); nil in tests that weigh only.
    var items: ChannelItems?
    /// The piece-count reference while it counts (`?COUNT`).
    var counter: PieceCounter?
    /// The target and limits while it check-weighs (`?CHECK`).
    var checking: ChannelCheck?
    /// The commands waiting for a stable reading (MT-SICS `S`, `Z`, `T`, a button), by token.
    private(set) var stableWaits: [UInt64: StableWaiting] = [:]

    /// A command waiting for a stable reading of this sensor.
    struct StableWaiting {
        let action: WeighingAction
        var wait: StableWait
    }

    /// What one sample or state change of the sensor leads to, in the order it is carried out.
    struct Outputs {
        /// Reports published before the weight: the sensor's `STATE`.
        var leading: [Report] = []
        /// A finished batch of raw codes.
        var raw: RawReport?
        /// The `WEIGHT` report and its binary frame.
        var weight: (report: WeightReport, frame: BinaryFrame)?
        /// Reports published after the weight: `ALERT` changes, then `CUE`s.
        var trailing: [Report] = []
        /// The item events this reading completed (at most one), with their `ITEM` reports,
        /// published after the trailing reports and recorded by a running session.
        var items: [(event: ItemEvent, report: ItemReport)] = []
        /// What the cue output sounds, in order.
        var cues: [Cue] = []
        /// The new reading, for the waits on the next one and the `SIR` followers.
        var reading: Reading?
        /// The sensor stopped delivering: those waits end with none.
        var interrupted = false
        /// The stable waits this sample or state decided, with their answers.
        var resumes: [(token: UInt64, outcome: WeighingOutcome)] = []
        /// A calibration capture this sample decided, with its reply.
        var capture: (token: UInt64, reply: [Report])?
        /// Lines for the log.
        var log: [(level: Logger.Level, message: String)] = []
    }

    init(
        name: String, index: Int, configuration: SensorConfiguration, engine: WeighingEngine,
        raw: RawBatcher, restoring: ZeroTareState? = nil
    ) {
        self.name = name
        self.index = index
        self.configuration = configuration
        self.profile = configuration.profile?.name
        self.engine = engine
        self.raw = raw
        self.calibration = CalibrationSession(sensor: name)
        self.restoring = restoring
    }

    /// The latest reading while it is current; nil during an outage, so that nothing weighs,
    /// zeroes, tares or ranks a pan on a reading from before it.
    var current: Reading? { outage == nil ? latest : nil }

    // MARK: - Samples in

    /// Weighs `sample`, taken at wall-clock `wallTime`, and says what follows from it;
    /// `heaviest` learns the reading and decides this sensor's `heaviest` flag.
    mutating func take(_ sample: Sample, wallTime: Double, heaviest: inout HeaviestJudge) -> Outputs {
        var out = Outputs()
        var flags: EngineInput.Flags = []
        if sample.flags.contains(.overRange) { flags.insert(.overRange) }
        if sample.flags.contains(.underRange) { flags.insert(.underRange) }
        let reading = engine.process(EngineInput(signal: sample.signal, time: sample.time.nanoseconds, flags: flags))
        let outageEnded = outage != nil
        latest = reading
        latestTime = sample.time
        outage = nil
        latestIsStale = false
        if outageEnded {
            out.log.append((.notice, "\(name): samples again; weighing resumes on a fresh stable reading"))
        }
        keepZeroTare(&out, now: sample.time)
        out.raw = raw.add(sample, time: wallTime, sensor: name)
        if let point = reading.capturedPoint { out.capture = calibration.captured(point, engine: engine) }
        heaviest.observe(name, reading)
        out.reading = reading
        for (token, var waiting) in stableWaits {
            guard let decided = waiting.wait.consume(reading) else {
                stableWaits[token] = waiting
                continue
            }
            stableWaits[token] = nil
            switch decided {
            case .stable: out.resumes.append((token, act(waiting.action, requireStable: true)))
            case .timedOut(let last): out.resumes.append((token, WeighingOutcome(reading: last, timedOut: true)))
            }
        }
        let isHeaviest = heaviest.names.contains(name)
        out.weight = (
            ReportBuilder.weightReport(reading, sensor: name, time: wallTime, heaviest: isHeaviest),
            ReportBuilder.frame(reading, index: index, heaviest: isHeaviest)
        )
        countPieces(reading, &out)
        checkWeight(reading, &out)
        evaluateAlerts(reading, wallTime: wallTime, &out)
        detectItem(reading, wallTime: wallTime, &out)
        for cue in reading.cues {
            out.trailing.append(.cue(ReportBuilder.cueReport(cue, sensor: name)))
            out.cues.append(cue)
        }
        return out
    }

    /// Takes the sampler's new `state` at `now` (wall-clock `wallTime`): a state that delivers
    /// no samples begins (or updates) an outage (see ``enterOutage(_:now:wallTime:_:_:)``).
    mutating func take(
        _ state: SensorState, now: MonotonicInstant, wallTime: Double, heaviest: inout HeaviestJudge
    ) -> Outputs {
        var out = Outputs()
        out.leading.append(.state(StateReport(sensor: name, state: state.name, reason: state.reason)))
        if state != .ok && state != .starting { enterOutage(state, now: now, wallTime: wallTime, &heaviest, &out) }
        return out
    }

    /// Each rule on this sensor runs on `reading`; a change is reported, logged, and a raised
    /// rule with `cue = true` sounds the cue output.
    private mutating func evaluateAlerts(_ reading: Reading, wallTime: Double, _ out: inout Outputs) {
        for index in alerts.indices {
            guard let change = alerts[index].state.update(reading) else { continue }
            alerts[index].changedAt = wallTime
            let rule = alerts[index].state.rule
            switch change {
            case .raised(let grams):
                out.log.append((.notice, "alert \(rule.name) raised: \(name) at \(ReportBuilder.grams(grams))"))
                if rule.cue { out.cues.append(.alert(name: rule.name)) }
            case .cleared(let grams):
                out.log.append((.notice, "alert \(rule.name) cleared: \(name) at \(ReportBuilder.grams(grams))"))
            }
            out.trailing.append(.alert(alerts[index].report(now: wallTime)))
        }
    }

    // MARK: - Zero, tare and waits

    /// What a balance command can be answered with at once, or nil when it waits for a stable
    /// reading: the outage, an overloaded or underloaded reading, or the act on a stable one.
    mutating func answerAtOnce(_ action: WeighingAction) -> WeighingOutcome? {
        if let outage { return WeighingOutcome(outage: outage) }
        guard let latest, !latestIsStale, latest.isStable || latest.isOverload || latest.isUnderload else { return nil }
        return latest.isStable && !latest.isOverload && !latest.isUnderload
            ? act(action, requireStable: true) : WeighingOutcome(reading: latest)
    }

    /// Parks a command under `token` until a reading decides it (``take(_:wallTime:heaviest:)``):
    /// stable, or no stable reading within `timeout` of sample time from `start`.
    mutating func waitForStable(
        _ token: UInt64, _ action: WeighingAction, timeout: Duration, from start: MonotonicInstant
    ) {
        let nanoseconds =
            UInt64(max(0, timeout.components.seconds)) * 1_000_000_000
            + UInt64(max(0, timeout.components.attoseconds / 1_000_000_000))
        stableWaits[token] = StableWaiting(
            action: action, wait: StableWait(timeout: nanoseconds, from: start.nanoseconds))
    }

    /// Ends the wait with `token` (timed out or cancelled), if it still waits: its answer.
    mutating func endWait(_ token: UInt64) -> WeighingOutcome? {
        guard stableWaits.removeValue(forKey: token) != nil else { return nil }
        return WeighingOutcome(reading: current, timedOut: true)
    }

    /// Zeroes or tares now on the latest reading (or only weighs); with `requireStable` the
    /// engine refuses a moving load.
    mutating func act(_ action: WeighingAction, requireStable: Bool) -> WeighingOutcome {
        if let outage { return WeighingOutcome(outage: outage) }
        let load = latest?.gross.map { $0 + engine.zeroOffset }
        var outcome = WeighingOutcome(reading: latest, loadFromCalibratedZero: load)
        switch action {
        case .weigh: return outcome
        case .zero: outcome.result = engine.zero(requireStable: requireStable)
        case .tare: outcome.result = engine.tareNow(requireStable: requireStable)
        }
        if case .success? = outcome.result {
            latestIsStale = true
            markZeroTareChanged()
        }
        return outcome
    }

    /// Sets a known tare (MT-SICS `TA`).
    mutating func presetTare(grams: Double) -> Result<Double, Refusal> {
        let result = engine.presetTare(grams: grams)
        if case .success = result {
            latestIsStale = true
            markZeroTareChanged()
        }
        return result
    }

    /// Removes the tare (MT-SICS `TAC`).
    mutating func clearTare() {
        engine.clearTare()
        latestIsStale = true
        markZeroTareChanged()
    }

    /// `?TARE` or `?ZERO`: tares or zeroes on a stable load, and says what happened or why not.
    mutating func command(_ action: WeighingAction) -> Report {
        let kind = action == .tare ? "TARE" : "ZERO"
        let result = action == .tare ? engine.tareNow() : engine.zero()
        if case .success = result { markZeroTareChanged() }
        var reply = CommandReply(command: kind, sensor: name, ok: false)
        switch result {
        case .success(let grams):
            reply.ok = true
            if action == .tare { reply.tare = grams } else { reply.offset = grams }
        case .failure(let refusal):
            reply.reason = refusal.code.rawValue
            reply.message = refusal.description
        }
        return .command(reply)
    }

    /// A zero or tare the user made (or a new calibration) is to be saved: it supersedes a
    /// saved state still waiting to be judged.
    mutating func markZeroTareChanged() {
        restoring = nil
        zeroTareToSave = true
    }
}

extension HeaviestJudge {
    /// The sensors that are the heaviest loaded ones now (several on a tie, none when empty),
    /// judged on the stable displays; a sensor in an outage is not among them.
    var names: Set<String> {
        switch heaviest {
        case .none: []
        case .sensor(let id): [id]
        case .tie(let ids): Set(ids)
        }
    }
}
