package import PlumCore
internal import PlumHardware

/// What the station did for a balance command on one sensor (MT-SICS `S`, `Z`, `T` and their
/// immediate forms).
package struct WeighingOutcome: Sendable {
    /// The reading acted on, or the last one seen before a time-out; nil before the first sample.
    package var reading: Reading?
    /// For zero and tare: the engine's answer (the new zero offset or tare, or its refusal).
    package var result: Result<Double, Refusal>?
    /// The load from calibrated zero when the command ran, to tell "above" from "below" the
    /// zero range.
    package var loadFromCalibratedZero: Double?
    /// No stable reading came within the time-out.
    package var timedOut = false
    /// The sensor is not configured.
    package var unknownSensor = false
    /// The sensor delivers no samples: nothing was weighed, zeroed or tared.
    package var outage: SensorState?
}

/// Zero or tare, or only weigh.
package enum WeighingAction: Sendable {
    case weigh, zero, tare
}

/// The balance commands of the MT-SICS listener: weigh one sensor, wait for stable, zero and
/// tare it, and follow its readings.
extension Station {
    /// The latest reading of `name`, or nil before its first sample or for an unknown name.
    ///
    /// After a zero or tare the latest reading still shows the old net weight, so this waits
    /// for the next one (at most `timeout`, one sample period in practice).
    /// A sensor that delivers no samples has no current reading: nil.
    package func currentReading(of name: String, timeout: Duration = .seconds(1)) async -> Reading? {
        guard let entry = entry(name), entry.outage == nil else { return nil }
        guard entry.latestIsStale else { return entry.latest }
        let token = newToken()
        return await withCheckedContinuation { continuation in
            waits.waitForNext(token, sensor: name, continuation)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.endNextReadingWait(token)
            }
        }
    }

    /// The tare in use on `name`, in grams.
    package func tare(of name: String) -> Double? { entry(name)?.engine.tare }

    /// Carries out `action` on the first stable reading of `name` (the latest one, if it is
    /// stable), or gives up after `timeout`. An overloaded or underloaded sensor answers at once.
    ///
    /// The zero or tare runs in the same actor turn as the stable reading arrives, so no later
    /// sample can make it refuse for a moving load.
    /// A sensor that delivers no samples answers at once with its ``WeighingOutcome/outage``,
    /// and a wait ends with it when the sensor stops while it waits.
    package func whenStable(_ name: String, timeout: Duration, _ action: WeighingAction) async -> WeighingOutcome {
        guard let entry = entry(name) else { return WeighingOutcome(unknownSensor: true) }
        if let outage = entry.outage { return WeighingOutcome(outage: outage) }
        if let latest = entry.latest, !entry.latestIsStale, latest.isStable || latest.isOverload || latest.isUnderload {
            return latest.isStable && !latest.isOverload && !latest.isUnderload
                ? act(name, action, requireStable: true) : WeighingOutcome(reading: latest)
        }
        let token = newToken()
        let nanoseconds =
            UInt64(max(0, timeout.components.seconds)) * 1_000_000_000
            + UInt64(max(0, timeout.components.attoseconds / 1_000_000_000))
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let wait = StableWait(timeout: nanoseconds, from: SystemMonotonicClock().now().nanoseconds)
                waits.waitForStable(token, .init(sensor: name, action: action, wait: wait, reply: continuation))
                // The readings' own clock decides the deadline; this timer covers a sensor
                // that stops sending.
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.endWait(token)
                }
            }
        } onCancel: {
            // `@` or a closed connection: stop waiting, and do not zero or tare later.
            Task { [weak self] in await self?.endWait(token) }
        }
    }

    /// Zeroes or tares `name` now, on the latest reading, stable or not (MT-SICS `ZI`, `TI`).
    package func actNow(_ name: String, _ action: WeighingAction) -> WeighingOutcome {
        guard let entry = entry(name) else { return WeighingOutcome(unknownSensor: true) }
        if let outage = entry.outage { return WeighingOutcome(outage: outage) }
        return act(name, action, requireStable: false)
    }

    /// Sets a known tare on `name` (MT-SICS `TA <value> g`).
    package func presetTare(_ name: String, grams: Double) -> Result<Double, Refusal>? {
        guard var entry = entry(name) else { return nil }
        let result = entry.engine.presetTare(grams: grams)
        if case .success = result {
            entry.latestIsStale = true
            saveZeroTare(&entry)
        }
        store(entry)
        return result
    }

    /// Removes the tare of `name` (MT-SICS `TAC`); false for an unknown name.
    package func clearTare(_ name: String) -> Bool {
        guard var entry = entry(name) else { return false }
        entry.engine.clearTare()
        entry.latestIsStale = true
        saveZeroTare(&entry)
        store(entry)
        return true
    }

    /// Every new reading of `name` from now on, until the consumer stops iterating; a slow
    /// consumer gets the newest reading only. A nil says the sensor stopped delivering (and
    /// comes at once for a sensor that delivers nothing now).
    package func readings(of name: String) -> AsyncStream<Reading?> {
        let (stream, continuation) = AsyncStream.makeStream(of: Reading?.self, bufferingPolicy: .bufferingNewest(1))
        if entry(name)?.outage != nil { continuation.yield(nil) }
        let token = newToken()
        waits.follow(token, sensor: name, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeReadingStream(token) }
        }
        return stream
    }

    // MARK: - Internals

    private func act(_ name: String, _ action: WeighingAction, requireStable: Bool) -> WeighingOutcome {
        guard var entry = entry(name) else { return WeighingOutcome(unknownSensor: true) }
        if let outage = entry.outage { return WeighingOutcome(outage: outage) }
        let load = entry.latest?.gross.map { $0 + entry.engine.zeroOffset }
        var outcome = WeighingOutcome(reading: entry.latest, loadFromCalibratedZero: load)
        switch action {
        case .weigh:
            return outcome
        case .zero:
            outcome.result = entry.engine.zero(requireStable: requireStable)
        case .tare:
            outcome.result = entry.engine.tareNow(requireStable: requireStable)
        }
        if case .success? = outcome.result {
            entry.latestIsStale = true
            saveZeroTare(&entry)
        }
        store(entry)
        return outcome
    }

    /// Called with each new reading of `name`: answers the waits it decides and feeds `SIR`.
    func serveWaiters(_ name: String, _ reading: Reading) {
        for (waiter, outcome) in waits.serve(name, reading) {
            switch outcome {
            case .stable:
                waiter.reply.resume(returning: act(name, waiter.action, requireStable: true))
            case .timedOut(let last):
                waiter.reply.resume(returning: WeighingOutcome(reading: last, timedOut: true))
            }
        }
    }

    /// Ends a wait that timed out or was cancelled (whose answer nobody reads), if it is still
    /// waiting.
    func endWait(_ token: UInt64) {
        guard let waiter = waits.endStableWait(token) else { return }
        waiter.reply.resume(returning: WeighingOutcome(reading: entry(waiter.sensor)?.current, timedOut: true))
    }

    /// Ends a wait for the next reading of a sensor that sent none in time: the old reading.
    func endNextReadingWait(_ token: UInt64) {
        guard let waiter = waits.endNextWait(token) else { return }
        waiter.reply.resume(returning: entry(waiter.sensor)?.current)
    }

    func removeReadingStream(_ token: UInt64) {
        waits.stopFollowing(token)
    }
}
