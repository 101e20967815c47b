/// The weighing engine for one sensor: turns each input sample into a ``Reading`` and carries
/// out zero, tare and calibration commands.
///
/// Pipeline per sample (docs/engine.md): calibration (signal → grams) → spike rejection →
/// adaptive filter → zero tracking, zero and tare → stability → rounding and flags → cues.
/// It is a value type with no I/O and no clock: time comes from the inputs, so a daemon owns
/// one per sensor and replays, simulations and tests drive it identically.
public struct WeighingEngine: Sendable {
    public let sensor: SensorIdentity
    public let kind: SensorKind
    public let configuration: ScaleConfiguration
    /// The calibration in use, or `nil` (raw readings only).
    public private(set) var calibration: Calibration?
    /// Why there is no calibration, shown in every uncalibrated reading.
    public private(set) var uncalibratedReason: String?
    /// Grams by which the current zero sits above calibrated zero (zero-setting and tracking).
    public internal(set) var zeroOffset = 0.0
    /// The power-up zero, in grams from calibrated zero: where initial zero-setting (or a
    /// restored zero) put it. Zero-setting and tracking stay within the zero range of it.
    public internal(set) var zeroReference = 0.0
    /// The current tare in grams.
    public internal(set) var tare = 0.0
    /// The reading of the latest sample; commands act on it. Nil again after ``interrupt(because:)``.
    public private(set) var lastReading: Reading?
    /// Why the sensor delivers no samples, from ``interrupt(because:)`` until the next sample.
    public private(set) var interruption: String?
    /// The running calibration procedure, if any.
    public internal(set) var procedure: CalibrationProcedure?

    private var spikes: SpikeFilter
    /// The estimator on trial, when ``FilterTuning/estimator`` chooses it.
    private var levelRate: LevelRateFilter?
    private var filter: AdaptiveFilter
    private var stability: StabilityDetector
    var tracker: ZeroTracker
    private var cues: CueGenerator
    var flow: FlowRate
    /// The filtered value: grams once calibrated, the signal's own units before.
    private var filtered: Double?
    /// The signal's measured noise: before calibration it stands in for the division.
    private var noise = SignalNoise()
    /// The noise of one sample in working units (grams once calibrated): the spike stage and
    /// the filter judge a deviation against it rather than against the division alone.
    private var sampleNoise = SignalNoise()
    /// The division the display shows, kept until the load is past a rounding boundary by the
    /// hysteresis (``ScaleConfiguration/displayHysteresis``); nil when it shows no weight.
    var shownDivisions: Int64?
    /// Initial zero-setting has yet to see its first stable load.
    var awaitingInitialZero: Bool
    /// A saved zero and tare waiting for the first stable load to be judged.
    var pendingRestore: ZeroTareState?
    /// What became of the saved zero and tare handed to ``restoreZeroTare(_:)``, once decided.
    public internal(set) var restoreOutcome: ZeroTareRestore?
    /// The time of the first sample, which the warm-up is measured from.
    var firstSampleTime: UInt64?
    /// The zero offset last saved (``markZeroTareSaved()``), to save again once tracking moved it.
    var persistedZero: Double?
    /// Whether ``takeWarmUpChange()`` last said the warm-up began (true) or ended (false).
    var warmUpAnnounced: Bool?

    /// Creates an engine, refusing a configuration or calibration that cannot work.
    ///
    /// - Parameters:
    ///   - calibration: the stored calibration, or `nil` to run uncalibrated.
    ///   - uncalibratedReason: why `calibration` is `nil` (e.g. the store's error), for readings.
    public init(
        sensor: SensorIdentity, kind: SensorKind, configuration: ScaleConfiguration = ScaleConfiguration(),
        calibration: Calibration? = nil, uncalibratedReason: String? = nil
    ) throws(Refusal) {
        if case .failure(let refusal) = configuration.validate() { throw refusal }
        if case .failure(let refusal) = sensor.validate() { throw refusal }
        self.sensor = sensor
        self.kind = kind
        self.configuration = configuration
        awaitingInitialZero = configuration.initialZeroSetting
        let d = configuration.division.grams
        spikes = SpikeFilter(
            holdTime: configuration.filter.spikeHoldTime, threshold: configuration.filter.spikeThreshold)
        filter = AdaptiveFilter(
            timeConstant: configuration.filter.averagingTime,
            longestAveragingTime: configuration.filter.longestAveragingTime)
        if case .levelRate(let tuning) = configuration.filter.estimator { levelRate = LevelRateFilter(tuning: tuning) }
        stability = StabilityDetector(
            window: configuration.effectiveStabilityWindow, band: configuration.stabilityBand * d,
            slopeWindow: configuration.flowWindow, slopeLimit: configuration.stabilitySlope * d)
        tracker = ZeroTracker(rate: configuration.zeroTrackingRate * d, band: configuration.zeroTrackingBand * d)
        flow = FlowRate(window: configuration.flowWindow)
        cues = CueGenerator(
            configuration: configuration.cue, capacity: configuration.capacity,
            newWeightDistance: configuration.loadedThreshold * d)
        if let calibration {
            if case .failure(let refusal) = install(calibration) { throw refusal }
        } else {
            self.uncalibratedReason = uncalibratedReason ?? "sensor \(sensor.id) has no calibration yet"
        }
    }

    /// Puts a calibration into use: zero and tare are cleared and the filters restart, since
    /// their history is in the old calibration's grams.
    public mutating func install(_ calibration: Calibration) -> Result<Void, Refusal> {
        guard calibration.kind == kind else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "calibration is for a \(calibration.kind.rawValue) but sensor \(sensor.id) is a \(kind.rawValue)",
                    hint: "recalibrate this sensor"))
        }
        guard calibration.sensor.gain == sensor.gain else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "calibration was made at gain \(calibration.sensor.gain.map(String.init) ?? "none") "
                        + "but sensor \(sensor.id) runs at gain \(sensor.gain.map(String.init) ?? "none")",
                    hint: "recalibrate at this gain or switch the gain back"))
        }
        self.calibration = calibration
        uncalibratedReason = nil
        restartPipeline()
        return .success(())
    }

    /// Drops the calibration (raw readings only), saying why.
    public mutating func removeCalibration(reason: String) {
        calibration = nil
        uncalibratedReason = reason
        restartPipeline()
    }

    /// Processes one sample.
    ///
    /// A non-finite signal is not a measurement: it leaves the filters untouched, and the
    /// reading repeats the last filtered value, marked not stable.
    public mutating func process(_ input: EngineInput) -> Reading {
        interruption = nil
        let d = configuration.division.grams
        if firstSampleTime == nil { firstSampleTime = input.time }
        noise.add(input.signal)
        // Every threshold is a multiple of a unit: d in grams once calibrated; before, a unit
        // made from the signal's own noise, in its own units (counts, mV, µS), since no gram
        // is known yet (``SignalNoise/unit``; nil until the noise has been measured).
        var unit: Double? = d
        var working: Double?
        if let calibration {
            working = calibration.grams(fromSignal: input.signal)
        } else if input.signal.isFinite {
            working = input.signal
            unit = noise.unit
        }
        // A pinned ADC, or a signal past a quadratic's turning point, is not a measurement:
        // keep it out of the filters so the average does not carry it afterwards.
        let (pinnedHigh, pinnedLow) = Calibration.pinnedSides(
            of: input, calibration: calibration, measured: working != nil, overloadLimit: configuration.overloadLimit)
        var stable = false
        var precise = false
        if let value = working, let unit, !pinnedHigh, !pinnedLow {
            let filterTuning = configuration.filter
            // A deviation is judged against the measured noise of one sample as well as against
            // d: an ordinary draw of a noisy cell (3 σ is 1.7 d at σ = 0.56 d) is neither a spike
            // nor a step (docs/engine.md, "Judged against the noise").
            sampleNoise.add(value)
            // One block of 16 differences knows σ only to ±22 %: until four blocks (0.8 s at
            // 80 SPS, 6.4 s at 10 SPS) have been measured, σ is taken one standard error low,
            // so a doubtful estimate errs towards calling noise motion. (Taken at blocks ÷ 4, a
            // quarter at first, ordinary draws looked like motion for 6.4 s.)
            let blocks = sampleNoise.blocksSeen
            let sigma =
                (sampleNoise.sigma ?? 0) * (blocks >= 4 ? 1 : max(0, 1 - SignalNoise.relativeError(blocks: blocks)))
            if var estimator = levelRate {
                let restarts = estimator.restarts
                let smooth = estimator.process(value, time: input.time, noise: sigma, division: unit)
                if estimator.restarts != restarts, !(abs(smooth - (filtered ?? smooth)) <= band(unit)) {
                    stability.restart()
                }
                filtered = smooth
                stability.band = band(unit)
                stability.slopeLimit = .infinity
                stable =
                    stability.update(smooth, time: input.time)
                    && estimator.isSettled(division: unit, slopeLimit: configuration.stabilitySlope * unit)
                precise = estimator.levelDeviation <= 0.25 * unit && blocks >= 2
                levelRate = estimator
            } else {
                let despiked = spikes.process(
                    value, time: input.time, floor: max(filterTuning.spikeFloor * unit, 5 * sigma), noise: sigma)
                let band = configuration.stabilityBand * unit
                filter.restNoise = filterTuning.restNoise * unit
                let restarts = filter.stepCount
                let smooth = filter.process(
                    despiked, time: input.time, stepThreshold: max(filterTuning.stepThreshold * unit, 6 * sigma),
                    shift: band, noise: sigma)
                // A restart that moved the average by more than the band is a new load, and the
                // slope is fitted to it alone; a smaller one (a correction after ringing) keeps it.
                if filter.stepCount != restarts, !(abs(smooth - (filtered ?? smooth)) <= band) { stability.restart() }
                filtered = smooth
                // A sample the spike stage held back is either a knock or the first of a step, and
                // a settling filter has seen the load move where its average has not yet followed:
                // either way the display is about to move, even though it has not moved yet.
                let held = despiked != value
                stability.band = band
                stability.slopeLimit = configuration.stabilitySlope * unit
                stable =
                    stability.update(smooth, sample: despiked, noise: sigma, time: input.time) && !held
                    && !filter.isSettling
                // The plain mean of n samples is good to σ/√n (past it the exponential average is
                // good to the rest noise, which is smaller). Here a doubtful σ is taken one standard
                // error high, erring the other way would set a zero from too few samples; and not
                // before two blocks, since the CUSUM judged the first block's samples on a σ taken
                // low, and a restart it made on noise carries the samples it gathered, all one way.
                if let measured = sampleNoise.sigma, blocks >= 2 {
                    let high = measured * (1 + SignalNoise.relativeError(blocks: blocks))
                    precise = high <= 0.25 * unit * Double(filter.depth).squareRoot()
                }
            }
        } else if let value = working, !pinnedHigh, !pinnedLow {
            // Uncalibrated and the noise not measured yet: show the signal, claim nothing.
            filtered = value
            stability.reset()
        } else {
            stability.reset()
        }

        var gross: Double?
        var net: Double?
        var sampleNet: Double?
        if calibration != nil, let value = filtered, !pinnedHigh, !pinnedLow {
            let g = settleZero(value, stable: stable, precise: precise, time: input.time)
            // A saved tare and zero not yet judged against this load, or the power-up zero not
            // yet set (each waits for an average known to ¼ d, a few tenths of a second): the
            // net is not yet one to act on. An empty pan read stable before its zero was set
            // showed the cell's offset (1 or 2 d), and the history stored it at every start.
            // During a configured warm-up readings are shown as they come, said to be warming up.
            if pendingRestore != nil || awaitingInitialZero, !isWarmingUp(at: input.time) { stable = false }
            gross = g
            net = g - tare
            if let working, working.isFinite { sampleNet = g - tare + (working - value) }
        }
        let overload = pinnedHigh || (gross.map { $0 > configuration.overloadLimit } ?? false)
        let underload = !overload && (pinnedLow || (gross.map { $0 < -configuration.zeroRange } ?? false))
        let display: Reading.Display
        if net == nil || overload || underload { shownDivisions = nil }
        if overload {
            display = .overload
        } else if underload {
            display = .underload
        } else if let net {
            let shown = steadyDivisions(net)
            display = .grams(divisions: shown, value: configuration.division.grams(divisions: shown))
        } else {
            display = calibration == nil ? .uncalibrated : .noSignal
        }
        let loaded = overload || (!underload && (net.map { $0 >= configuration.loadedThreshold * d } ?? false))
        // Full force is judged on the gross load, as overload is: a tared bowl still loads the cell.
        let cueNet = overload ? max(net ?? configuration.overloadLimit, configuration.overloadLimit) : net
        let force = overload ? max(gross ?? configuration.overloadLimit, configuration.overloadLimit) : gross
        let emitted =
            calibration == nil
            ? [] : cues.update(net: cueNet, force: force, stable: stable, loaded: loaded, time: input.time)
        // The rate of the calibrated load, which neither zero nor tare steps (each also starts it
        // over); an overload, a pinned or lost signal starts it over too.
        let measured = input.signal.isFinite && !overload && !underload && gross != nil
        let rate = flow.update(measured ? filtered : nil, time: input.time)
        let captured = procedure?.observe(signal: input.signal, stable: stable && !pinnedHigh && !pinnedLow)

        var reading = Reading(
            sensor: sensor.id, time: input.time, signal: input.signal, gross: gross, tare: tare, net: net,
            display: display, division: configuration.division, capacity: configuration.capacity,
            percentOfCapacity: gross.map { $0 / configuration.capacity * 100 }, isStable: stable, flow: rate,
            isOverload: overload, isUnderload: underload,
            isCentreOfZero: !overload && !underload && (gross.map { abs($0) <= 0.25 * d } ?? false),
            isLoaded: loaded, calibration: calibration, uncalibratedReason: uncalibratedReason, cues: emitted,
            calibrationStep: procedure?.step, capturedPoint: captured)
        reading.sampleNet = sampleNet
        lastReading = reading
        return reading
    }

    /// The sensor stopped delivering (a fault, a chip not ready): nothing measured before the
    /// gap is current any more.
    ///
    /// The last reading is forgotten, so no zero, tare or capture can be taken from it; the
    /// filters, stability and flow start over, so the first stable reading afterwards is made
    /// of samples taken after the gap alone. Commands are refused with
    /// ``Refusal/Code/sensorUnavailable`` until the next sample arrives.
    /// - Parameter reason: what the sensor's state says, for the refusals (`no conversion
    ///   within 200 ms: …`).
    public mutating func interrupt(because reason: String) {
        interruption = reason
        lastReading = nil
        filtered = nil
        shownDivisions = nil
        spikes.reset()
        filter.reset()
        levelRate?.reset()
        stability.reset()
        flow.reset()
    }

    /// The filtered load from calibrated zero, if a command may act on it now.
    func commandState(_ command: String, requireStable: Bool) -> Result<Double, Refusal> {
        if let refusal = unavailable(command) { return .failure(refusal) }
        guard calibration != nil else {
            return .failure(
                Refusal(
                    .uncalibrated, "\(command) refused: \(sensor.id) is not calibrated",
                    hint: "calibrate with known weights first"))
        }
        guard let reading = lastReading, let value = filtered else {
            return .failure(
                Refusal(
                    .notStable, "\(command) refused: no reading yet", hint: "wait for the sensor to deliver samples"))
        }
        guard !reading.isOverload else {
            return .failure(
                Refusal(.overload, "\(command) refused: the scale is overloaded", hint: "take the load off"))
        }
        guard !reading.isUnderload else {
            return .failure(
                Refusal(
                    .underload, "\(command) refused: the reading is below the zero range",
                    hint: "check that nothing lifts the pan, or recalibrate"))
        }
        guard reading.isStable || !requireStable else {
            return .failure(
                Refusal(
                    .notStable, "\(command) refused: the load is moving", hint: "wait until it is stable and try again")
            )
        }
        return .success(value)
    }

    /// The refusal of `command` while the sensor delivers no samples.
    func unavailable(_ command: String) -> Refusal? {
        interruption.map {
            Refusal(
                .sensorUnavailable, "\(command) refused: \(sensor.id) delivers no samples (\($0))",
                hint: "check the sensor's wiring and power; it works again once samples come")
        }
    }

    func grams(_ value: Double) -> String { configuration.division.format(value) + " g" }

    private func band(_ unit: Double) -> Double { configuration.stabilityBand * unit }

    private mutating func restartPipeline() {
        spikes.reset()
        filter.reset()
        levelRate?.reset()
        stability.reset()
        flow.reset()
        filtered = nil
        shownDivisions = nil
        (zeroOffset, zeroReference, tare) = (0, 0, 0)
    }
}
