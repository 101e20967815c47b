package import PlumCore
internal import PlumDrivers
internal import PlumHardware
package import PlumProtocol
internal import PlumSensors

/// The reports readings and outcomes become: the `WEIGHT` every watcher receives and its
/// binary frame, the unavailable `WEIGHT` of a sensor in an outage, `CUE`, `BUTTON`, `?POLL`
/// and `?DEVICES`. Pure functions of their arguments: the caller supplies every time.
package enum ReportBuilder {
    /// A `WEIGHT` report for `reading`, as every watcher receives it (also used by the
    /// per-sample benchmark).
    package static func weightReport(_ reading: Reading, sensor: String, time: Double, heaviest: Bool) -> WeightReport {
        let hue = ForceHue(fraction: reading.fractionOfCapacity ?? 0)
        return WeightReport(
            sensor: sensor, time: time, grams: reading.net.finite, display: reading.text(in: .gram), unit: "g",
            percent: reading.percentOfCapacity.finite, stable: reading.isStable, overload: reading.isOverload,
            underload: reading.isUnderload, zero: reading.isCentreOfZero,
            tare: reading.division.round(reading.tare).grams, heaviest: heaviest,
            hue: hue.degrees, rgb: hue.hex, calibrated: reading.isCalibrated, reason: reading.uncalibratedReason,
            signal: reading.signal.isFinite ? reading.signal : nil, division: reading.division.grams,
            flow: reading.flow.finite, divisions: reading.displayedDivisions)
    }

    static func frame(_ reading: Reading, index: Int, heaviest: Bool) -> BinaryFrame {
        var flags: BinaryFrame.Flags = []
        if reading.isStable { flags.insert(.stable) }
        if reading.isOverload { flags.insert(.overload) }
        if reading.isUnderload { flags.insert(.underload) }
        if reading.isCentreOfZero { flags.insert(.zeroCentre) }
        if reading.tare != 0 { flags.insert(.tared) }
        if heaviest { flags.insert(.heaviest) }
        if reading.isCalibrated { flags.insert(.calibrated) }
        if reading.cues.contains(.maxForce) { flags.insert(.cue) }
        return BinaryFrame(
            sensorIndex: UInt8(truncatingIfNeeded: index), flags: flags, grams: Float(reading.net ?? .nan),
            raw: Int32(clamping: Int64(reading.signal.isFinite ? reading.signal.rounded() : 0)))
    }

    static func cueReport(_ cue: Cue, sensor: String) -> CueReport {
        switch cue {
        case .maxForce: CueReport(sensor: sensor, cue: "max-force")
        case .stableWeight(let grams): CueReport(sensor: sensor, cue: "stable-weight", grams: grams)
        case .alert: CueReport(sensor: sensor, cue: "alert")
        }
    }

    /// The `WEIGHT` of a sensor in an outage: no grams, not stable, `stale`, with its state,
    /// the state's reason and the age of the last good sample at `now`.
    static func unavailableReport(_ channel: SensorChannel, now: MonotonicInstant, wallTime: Double) -> WeightReport {
        let state = channel.outage ?? .stopped
        let age = channel.latestTime.map { Double(now.nanoseconds(since: $0)) / 1e9 }
        let engine = channel.engine
        return WeightReport(
            sensor: channel.name, time: wallTime, grams: nil, display: state.name, unit: "g",
            percent: nil, stable: false, overload: false, underload: false, zero: false, tare: engine.shownTare,
            heaviest: false, hue: 0, rgb: unavailableColour, calibrated: engine.calibration != nil,
            reason: state.reason ?? "the sensor delivers no samples", signal: nil,
            division: engine.configuration.division.grams, flow: nil, state: state.name, stale: true, age: age)
    }

    /// Grey: a pan with no current weight has no force colour.
    static let unavailableColour = "#808080"

    /// The binary frame of a sensor in an outage: no grams (NaN), no flags.
    static func unavailableFrame(index: Int) -> BinaryFrame {
        BinaryFrame(sensorIndex: UInt8(truncatingIfNeeded: index), flags: [], grams: .nan, raw: 0)
    }

    /// `?POLL`: every sensor's weight: a live one's latest reading with the time its sample
    /// was taken, a sensor in an outage as unavailable (no grams, `stale`, its age); the total
    /// only when every pan is live.
    static func poll(
        _ channels: [SensorChannel], heaviest: Set<String>, now: MonotonicInstant,
        wallClock: (MonotonicInstant) -> Double
    ) -> PollReport {
        var weights: [WeightReport] = []
        var live = 0
        for channel in channels {
            if channel.outage != nil {
                weights.append(unavailableReport(channel, now: now, wallTime: wallClock(now)))
                continue
            }
            guard let reading = channel.latest else { continue }
            live += 1
            var weight = weightReport(
                reading, sensor: channel.name, time: wallClock(channel.latestTime ?? now),
                heaviest: heaviest.contains(channel.name))
            channel.countPieces(reading, into: &weight)
            if let checking = channel.checking { weight.checked(checking.weigher.judge(reading)?.rawValue) }
            weights.append(weight)
        }
        let summary = ScaleGroup.summarize(channels.compactMap(\.current))
        var report = PollReport(time: wallClock(now), active: live, weights: weights)
        if let out = channels.first(where: { $0.outage != nil }), let outage = out.outage {
            report.totalReason = "sensor \(out.name) is \(outage)"
        } else {
            switch summary.total {
            case .grams(let total): report.total = total.isFinite ? total : nil
            case .unavailable(let reason): report.totalReason = reason
            }
        }
        return report
    }

    /// One sensor in `?DEVICES`: its sampler's state and statistics (`status`, nil before its
    /// sampler is attached), its calibration, and the restore of zero and tare and the warm-up.
    static func device(_ channel: SensorChannel, status: SamplerStatus?) -> DevicesReport.Device {
        let engine = channel.engine
        let statistics = status?.statistics ?? DriverStatistics()
        var device = DevicesReport.Device(
            sensor: channel.name, index: channel.index, kind: channel.configuration.kind.rawValue,
            wiring: status?.info?.wiring ?? "", state: status?.state.name ?? "starting",
            reason: status?.state.reason, rate: status?.achievedRate ?? 0,
            nominalRate: status?.info?.nominalRate ?? 0, published: Int(clamping: statistics.published),
            discarded: Dictionary(
                uniqueKeysWithValues: statistics.discarded.byKey.map { ($0.key, Int(clamping: $0.count)) }
                    + [("buffer", Int(clamping: status?.droppedByBuffer ?? 0))]),
            notReady: Int(clamping: statistics.notReady), faults: Int(clamping: status?.faults ?? 0),
            notices: status?.info?.notices ?? [], calibrated: engine.calibration != nil,
            capacity: engine.configuration.capacity, profile: channel.profile)
        device.lastFault = status?.lastFault
        device.lastFaultTime = status?.lastFaultTime
        if let calibration = engine.calibration {
            device.calibrationDate = calibration.createdAt
            device.calibrationQuality = calibration.quality.summary
            device.calibrationGrade = calibration.quality.grade.rawValue
        } else {
            device.calibrationReason = engine.uncalibratedReason ?? "not calibrated"
        }
        if let outcome = engine.restoreOutcome {
            device.restore = outcome.name
            device.restoreReason = outcome.summary
        } else if channel.restoring != nil {
            device.restore = "pending"
            device.restoreReason = "waiting for the first stable load after warm-up"
        }
        if device.state == "ok", engine.isWarmingUp {
            device.state = "warming-up"
            device.reason = warmingUp(engine)
        }
        return device
    }

    /// Why a sensor is `warming-up`, in words.
    static func warmingUp(_ engine: WeighingEngine) -> String {
        let seconds = FixedPoint.text(Double(engine.configuration.warmUp) / 1e9, decimals: 1)
        return "warming up for \(seconds) s after start before zero-setting and the restore of zero and tare"
    }

    static func grams(_ value: Double) -> String { SensorEngines.grams(value) }
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
