internal import PlumCore
internal import PlumProtocol

/// What a push button's press does: a short press tares its sensors, a long press zeroes
/// them, each on its next stable reading (within 10 s), as MT-SICS `T` and `Z` do: the hand
/// that pressed the button has usually shaken the pan. The zero and tare are saved as a
/// client's are. Each outcome is logged and goes to the sensor's watchers as a `BUTTON`
/// report (``ReportBuilder/buttonReport(_:sensor:outcome:time:)``), so a client (the Home
/// Assistant bridge) sees a press that did nothing, and why.
enum ButtonPress {
    /// Carries out `gesture` on `sensors` of `station`, all at once. Runs on the station, so
    /// each `BUTTON` report follows the `WEIGHT` of the reading that decided it.
    /// - Returns: each sensor's outcome, in the order of `sensors`.
    static func carryOut(
        _ gesture: ButtonGesture, sensors: [String], on station: isolated Station
    ) async -> [WeighingOutcome] {
        let action: WeighingAction = gesture == .short ? .tare : .zero
        let word = gesture == .short ? "tare" : "zero"
        station.logger.notice("button: \(gesture) press, \(word) \(sensors.joined(separator: ", "))")
        let outcomes = await withTaskGroup(of: (Int, WeighingOutcome).self) { group in
            for (index, sensor) in sensors.enumerated() {
                group.addTask { (index, await station.whenStable(sensor, timeout: .seconds(10), action)) }
            }
            var byIndex: [Int: WeighingOutcome] = [:]
            for await (index, outcome) in group { byIndex[index] = outcome }
            return sensors.indices.compactMap { byIndex[$0] }
        }
        let time = UTCTimestamp.epochSeconds()
        for (sensor, outcome) in zip(sensors, outcomes) {
            let report = ReportBuilder.buttonReport(gesture, sensor: sensor, outcome: outcome, time: time)
            if report.ok {
                station.logger.notice("button: \(sensor): \(report.message)")
            } else {
                station.logger.warning("button: \(sensor): \(report.message)")
            }
            station.publisher.publishEvent(.button(report), sensor: sensor)
        }
        return outcomes
    }
}
