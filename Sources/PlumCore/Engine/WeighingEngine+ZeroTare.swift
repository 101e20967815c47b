/// Zero, tare, warm-up and the restore of a saved zero and tare on an engine (docs/engine.md,
/// "Zero, tare and tracking" and "Zero and tare over a restart", with their OIML R 76-1 clauses).
extension WeighingEngine {
    /// Whether the sensor is still warming up at `time` (nanoseconds, from the samples): the
    /// first ``ScaleConfiguration/warmUp`` after the first sample. The engine has no clock, so
    /// the warm-up runs from the first sample's time.
    public func isWarmingUp(at time: UInt64) -> Bool {
        guard configuration.warmUp > 0, let first = firstSampleTime else { return configuration.warmUp > 0 }
        return time < first || time - first < configuration.warmUp
    }

    /// Whether the latest sample fell in the warm-up: readings are shown, but initial
    /// zero-setting and the restore decision wait until it is over (state `warming-up`).
    public var isWarmingUp: Bool { isWarmingUp(at: lastReading?.time ?? firstSampleTime ?? 0) }

    /// The warm-up's start and end, each once, for a daemon to report: true on the first
    /// reading of a warm-up, false on the first after it, nil otherwise (and always without one).
    public mutating func takeWarmUpChange() -> Bool? {
        guard lastReading != nil else { return nil }
        switch (warmUpAnnounced, isWarmingUp) {
        case (nil, true):
            warmUpAnnounced = true
            return true
        case (true?, false):
            warmUpAnnounced = false
            return false
        default:
            return nil
        }
    }

    /// Zero-setting at power-up, the restore decision, and zero-tracking for one filtered value.
    ///
    /// - Parameters:
    ///   - value: the filtered load in grams from calibrated zero.
    ///   - precise: the average is known to within ¼ d (its noise measured, and enough samples
    ///     in it). Both power-up decisions wait for it: a zero set from the first few samples of
    ///     a noisy cell at 10 SPS was off by most of a division, and tracking, which reaches
    ///     only ±½ d, never took it back, so every load read a division high.
    /// - Returns: the gross load in grams from the zero in use.
    mutating func settleZero(_ value: Double, stable: Bool, precise: Bool, time: UInt64) -> Double {
        let ready = stable && precise && !isWarmingUp(at: time)
        if ready, let saved = pendingRestore {
            pendingRestore = nil
            let outcome = ZeroTareRestore.decide(
                saved: saved, calibration: calibration, configuration: configuration, load: value)
            restoreOutcome = outcome
            switch outcome {
            case .restored(let savedZero, let savedTare):
                (zeroOffset, zeroReference, tare) = (savedZero, saved.zeroReference, savedTare)
                // A kept tare says the container is on the pan: nothing there to zero.
                if savedTare > 0 { awaitingInitialZero = false }
            case .zeroOnly(let savedZero, _):
                (zeroOffset, zeroReference, tare) = (savedZero, saved.zeroReference, 0)
            case .discarded:
                (zeroOffset, zeroReference, tare) = (0, 0, 0)
            }
        }
        if ready, awaitingInitialZero, pendingRestore == nil {
            // R 76-1 4.5.1: initial zero-setting within 20 % of Max at most, from calibrated zero.
            awaitingInitialZero = false
            if abs(value) <= configuration.initialZeroRange { (zeroOffset, zeroReference) = (value, value) }
        }
        if persistedZero == nil, pendingRestore == nil, !awaitingInitialZero {
            persistedZero = zeroOffset
        }
        var gross = value - zeroOffset
        if configuration.zeroTracking {
            // R 76-1 4.5.1 and 4.5.7: tracking at most 0.5 e/s, and with zero-setting within the
            // zero range of the power-up zero (4 % of Max in all).
            // Not before the power-up zero is set (or a saved one judged): the engine withholds
            // the stable flag from the readings until then, and tracking acting on it followed
            // a zero that was not yet one.
            let settled = stable && !awaitingInitialZero && pendingRestore == nil
            let step = tracker.correction(gross: gross, stable: settled, time: time)
            let range = configuration.zeroRange
            let newOffset = min(zeroReference + range, max(zeroReference - range, zeroOffset + step))
            gross -= newOffset - zeroOffset
            zeroOffset = newOffset
        }
        return gross
    }

    /// The zero and tare to save after a command changed them (PlumStore's `ZeroTareStore`), or `nil`
    /// when there is no calibration for them to belong to.
    public var zeroTareState: ZeroTareState? {
        guard let calibration else { return nil }
        return ZeroTareState(
            sensor: sensor.fileStem, calibration: CalibrationReference(calibration), zeroOffset: zeroOffset,
            zeroReference: zeroReference, tare: tare)
    }

    /// Whether zero-tracking has moved the zero by a division or more since the state was last
    /// saved (``markZeroTareSaved()``): the daemon then saves it, so that after a restart the
    /// zero it restores includes the drift tracking had followed. Tracking moves at most
    /// 0.5 d/s, so this asks for a write at most every other second, and for none while the
    /// zero holds.
    public var zeroMovedSinceSave: Bool {
        guard calibration != nil, pendingRestore == nil, let persistedZero else { return false }
        return abs(zeroOffset - persistedZero) >= configuration.division.grams
    }

    /// Records that ``zeroTareState`` was saved as it is now.
    public mutating func markZeroTareSaved() { persistedZero = zeroOffset }

    /// Restores a zero and tare saved before a restart, if they still explain the load: judged
    /// on the first stable load after warm-up (``ZeroTareRestore``). ``restoreOutcome`` says
    /// what happened. With ``ScaleConfiguration/restoreTare`` off, nothing is restored. A zero
    /// or tare command before then wins.
    public mutating func restoreZeroTare(_ saved: ZeroTareState) {
        guard configuration.restoreTare else {
            restoreOutcome = .discarded(reason: "restore_tare is off")
            return
        }
        pendingRestore = saved
        restoreOutcome = nil
    }

    /// Whether a saved zero and tare wait to be judged on the first stable load after warm-up.
    public var isRestorePending: Bool { pendingRestore != nil }

    /// Takes over `old`'s zero, tare and warm-up when a reload rebuilt the engine with new
    /// settings. Nothing happened to the pan, so a live zero and tare are not judged on the load
    /// again, only checked against the new ranges (and judged as at a start when they no longer
    /// fit); a restore still pending stays pending; the warm-up goes on from the first sample.
    public mutating func carryZeroTare(from old: WeighingEngine) {
        firstSampleTime = old.firstSampleTime
        if let pending = old.pendingRestore {
            restoreZeroTare(pending)
            return
        }
        guard let state = old.zeroTareState else { return }
        let range = configuration.zeroRange
        let fits =
            configuration.restoreTare && calibration.map { state.calibration.matches($0) } == true
            && abs(state.zeroReference) <= configuration.initialZeroRange
            && abs(state.zeroOffset - state.zeroReference) <= range * (1 + 1e-9)
            && configuration.tareRange.contains(state.tare)
        guard fits else {
            restoreZeroTare(state)
            return
        }
        (zeroOffset, zeroReference, tare) = (state.zeroOffset, state.zeroReference, state.tare)
        awaitingInitialZero = awaitingInitialZero && old.awaitingInitialZero
        (persistedZero, restoreOutcome) = (old.persistedZero, old.restoreOutcome)
    }

    /// Sets zero to the present load, if it is stable and within the zero range of the
    /// power-up zero (R 76-1 4.5.1: zero-setting and tracking together within 4 % of Max).
    ///
    /// - Parameter requireStable: false zeroes a moving load at its filtered value (MT-SICS
    ///   `ZI`, "zero immediately").
    /// - Returns: the new zero offset from calibrated zero in grams, or a refusal such as
    ///   `zero refused: load is 42.0 g, outside the ±7.7 g zero range — use tare`.
    public mutating func zero(requireStable: Bool = true) -> Result<Double, Refusal> {
        switch commandState("zero", requireStable: requireStable) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let value):
            let range = configuration.zeroRange
            let fromReference = value - zeroReference
            guard abs(fromReference) <= range else {
                return .failure(
                    Refusal(
                        .outsideZeroRange,
                        "zero refused: load is \(grams(fromReference)), outside the ±\(grams(range)) zero range",
                        hint: fromReference > 0
                            ? "use tare, or empty the pan and zero again"
                            : "check that nothing lifts the pan, or recalibrate"))
            }
            (zeroOffset, tare, pendingRestore, awaitingInitialZero) = (value, 0, nil, false)
            // The display starts afresh at zero, not held a division off by its hysteresis.
            shownDivisions = nil
            flow.reset()
            return .success(value)
        }
    }

    /// Tares the present gross load at full resolution, if it is stable and within
    /// ``ScaleConfiguration/tareRange``: a semi-automatic tare (button, `?TARE`, MT-SICS `T`).
    ///
    /// R 76-1 4.6.3 asks the tare device to set the net indication to zero within ±0.25 e; a tare
    /// rounded to d left up to ½ d on the net (20.049 g tared read a net of 0.049 g). So the tare
    /// is the filtered gross itself, and only its indication is rounded to d (``shownTare``).
    /// A preset tare, a typed value, is rounded to d instead (``presetTare(grams:)``, 4.7.1).
    ///
    /// - Parameter requireStable: false tares a moving load at its filtered value (MT-SICS
    ///   `TI`, "tare immediately").
    /// - Returns: the tare as shown, rounded to d (0 when the pan is at zero, which clears the tare).
    public mutating func tareNow(requireStable: Bool = true) -> Result<Double, Refusal> {
        switch commandState("tare", requireStable: requireStable) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let value):
            let gross = value - zeroOffset
            let d = configuration.division.grams
            guard gross >= -0.5 * d else {
                return .failure(
                    Refusal(
                        .negativeTare, "tare refused: gross load is \(grams(gross)), below zero",
                        hint: "zero the empty scale instead"))
            }
            let rounded = configuration.division.round(gross).grams
            guard rounded <= configuration.tareRange.upperBound else {
                return .failure(
                    Refusal(
                        .invalidWeight,
                        "tare refused: gross load is \(grams(gross)), above the capacity "
                            + "\(grams(configuration.capacity))",
                        hint: "take some of the load off"))
            }
            // A gross just past Max that rounds to Max is kept at Max, so that the restore, which
            // accepts 0 … Max, takes back whatever could be tared.
            let full = min(gross, configuration.tareRange.upperBound)
            (tare, pendingRestore, awaitingInitialZero) = (abs(gross) <= 0.5 * d ? 0 : full, nil, false)
            // The display starts afresh at net zero, not held a division off by its hysteresis.
            shownDivisions = nil
            flow.reset()
            return .success(shownTare)
        }
    }

    /// The tare as it is indicated: rounded to d, the tare device's interval (R 76-1 4.6.1),
    /// while ``tare`` keeps the full resolution a semi-automatic tare was taken at.
    public var shownTare: Double { configuration.division.round(tare).grams }

    /// Removes the tare.
    public mutating func clearTare() {
        (tare, pendingRestore, shownDivisions) = (0, nil, nil)
        flow.reset()
    }

    /// Sets a known tare (a container weighed before), whatever is on the pan now, rounded to
    /// d (R 76-1 4.7.1: a preset tare is rounded to the scale interval).
    ///
    /// - Returns: the tare in grams, or a refusal for an uncalibrated sensor or a value
    ///   outside ``ScaleConfiguration/tareRange``.
    public mutating func presetTare(grams: Double) -> Result<Double, Refusal> {
        if let refusal = unavailable("tare") { return .failure(refusal) }
        guard calibration != nil else {
            return .failure(
                Refusal(
                    .uncalibrated, "tare refused: \(sensor.id) is not calibrated",
                    hint: "calibrate with known weights first"))
        }
        let range = configuration.tareRange
        let rounded = grams.isFinite ? configuration.division.round(grams).grams : grams
        guard rounded.isFinite, range.contains(rounded) else {
            return .failure(
                Refusal(
                    .invalidWeight,
                    "tare \(grams) g refused: a preset tare lies between 0 and the capacity "
                        + "\(self.grams(range.upperBound))",
                    hint: "send a tare between 0 and the capacity, or TAC to clear it"))
        }
        (tare, pendingRestore, shownDivisions) = (rounded, nil, nil)
        flow.reset()
        return .success(rounded)
    }
}
