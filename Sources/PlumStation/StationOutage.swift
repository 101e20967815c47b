internal import Logging
internal import PlumCore
internal import PlumDrivers
package import PlumProtocol
internal import PlumHardware

/// A sensor that stops delivering samples stops being weighed, at once and in every output:
/// its last weight is history, not a reading.
///
/// - The engine forgets its last reading and restarts its filters (``WeighingEngine/interrupt(because:)``):
///   no zero, tare or capture can be taken from before the gap, and the first stable reading
///   afterwards is made of fresh samples only.
/// - Waits for a stable reading (MT-SICS `S`, `Z`, `T`, a button) end at once with the outage.
/// - `SIR` followers are told the sensor is unavailable (`S I`).
/// - Watchers get a `WEIGHT` with no grams, `stale`, its `state` and `reason`, and the age of
///   the last good sample; `?POLL` answers the same for as long as the outage lasts.
/// - The pan leaves the heaviest and the total; an alert's hold in progress starts over, and
///   nothing raises or clears an alert until samples come again.
extension Station {
    /// Enters (or updates) the outage of `entry` for `state`.
    func beginOutage(_ entry: inout Entry, _ state: SensorState) {
        let first = entry.outage == nil
        entry.outage = state
        entry.engine.interrupt(because: state.description)
        store(entry)
        heaviest.observe(entry.name, nil)
        if first {
            logger.warning("\(entry.name): \(state); its last weight is no longer shown as current")
        }
        for (waiter, _) in waits.interrupt(entry.name) {
            waiter.reply.resume(returning: WeighingOutcome(reading: nil, outage: state))
        }
        for index in alerts.indices where alerts[index].state.rule.sensor == entry.name {
            _ = alerts[index].state.update(grams: nil, time: 0)
        }
        publisher.publishWeight(
            unavailableReport(entry, now: SystemMonotonicClock().now()),
            frame: Self.unavailableFrame(index: entry.index))
    }

    /// The `WEIGHT` of a sensor in an outage: no grams, not stable, `stale`, with its state,
    /// the state's reason and the age of the last good sample.
    func unavailableReport(_ entry: Entry, now: MonotonicInstant) -> WeightReport {
        let state = entry.outage ?? .stopped
        let age = entry.latestTime.map { Double(now.nanoseconds(since: $0)) / 1e9 }
        return WeightReport(
            sensor: entry.name, time: WallClock.seconds(at: now), grams: nil, display: state.name, unit: "g",
            percent: nil, stable: false, overload: false, underload: false, zero: false, tare: entry.engine.tare,
            heaviest: false, hue: 0, rgb: Self.unavailableColour, calibrated: entry.engine.calibration != nil,
            reason: state.reason ?? "the sensor delivers no samples", signal: nil,
            division: entry.engine.configuration.division.grams, flow: nil, state: state.name, stale: true, age: age)
    }

    /// What a client that has just begun to watch `sensors` (all when empty) is told first, as
    /// gpsd sends `DEVICES`: every alert's state, then an unavailable `WEIGHT` for each sensor
    /// in an outage, which sends no reading that would tell it.
    package func watchReports(sensors: [String]) -> [Report] {
        let now = SystemMonotonicClock().now()
        let out = sensorNames.filter { sensors.isEmpty || sensors.contains($0) }.compactMap { name in
            entry(name).flatMap { $0.outage == nil ? nil : Report.weight(unavailableReport($0, now: now)) }
        }
        return alertReports(sensors: sensors) + out
    }

    /// Grey: a pan with no current weight has no force colour.
    static let unavailableColour = "#808080"

    /// The binary frame of a sensor in an outage: no grams (NaN), no flags.
    static func unavailableFrame(index: Int) -> BinaryFrame {
        BinaryFrame(sensorIndex: UInt8(truncatingIfNeeded: index), flags: [], grams: .nan, raw: 0)
    }
}
