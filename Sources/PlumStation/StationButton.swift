package import PlumCore
internal import PlumProtocol

extension Station {
    /// What a push button's press does: a short press tares `sensors`, a long press zeroes
    /// them, each on its next stable reading (within 10 s), as MT-SICS `T` and `Z` do: the
    /// hand that pressed the button has usually shaken the pan. The zero and tare are saved as
    /// a client's are. Each outcome is logged and goes to the sensor's watchers as a `BUTTON`
    /// report, so a client (the Home Assistant bridge) sees a press that did nothing, and why.
    /// - Returns: each sensor's outcome, in the order of `sensors`.
    @discardableResult
    package func buttonPressed(_ gesture: ButtonGesture, sensors: [String]) async -> [WeighingOutcome] {
        let action: WeighingAction = gesture == .short ? .tare : .zero
        let word = gesture == .short ? "tare" : "zero"
        logger.notice("button: \(gesture) press, \(word) \(sensors.joined(separator: ", "))")
        var outcomes: [WeighingOutcome] = []
        await withTaskGroup(of: (Int, WeighingOutcome).self) { group in
            for (index, sensor) in sensors.enumerated() {
                group.addTask { (index, await self.whenStable(sensor, timeout: .seconds(10), action)) }
            }
            var byIndex: [Int: WeighingOutcome] = [:]
            for await (index, outcome) in group { byIndex[index] = outcome }
            outcomes = sensors.indices.compactMap { byIndex[$0] }
        }
        let time = UTCTimestamp.epochSeconds()
        for (sensor, outcome) in zip(sensors, outcomes) {
            let report = Self.buttonReport(gesture, sensor: sensor, outcome: outcome, time: time)
            if report.ok {
                logger.notice("button: \(sensor): \(report.message)")
            } else {
                logger.warning("button: \(sensor): \(report.message)")
            }
            publisher.publishEvent(.button(report), sensor: sensor)
        }
        return outcomes
    }

    /// The `BUTTON` report of `gesture`'s outcome on `sensor`: done with its grams, or refused
    /// with a code and the reason in words, said once ("tare refused: …", never "refused:
    /// tare refused: …"). A press that found no stable load within its wait is `notStable`, as
    /// `?TARE` would have answered on a moving pan.
    static func buttonReport(
        _ gesture: ButtonGesture, sensor: String, outcome: WeighingOutcome, time: Double
    ) -> ButtonReport {
        let word = gesture == .short ? "tare" : "zero"
        var report = ButtonReport(
            sensor: sensor, gesture: gesture.rawValue, action: word, ok: false, message: "", time: time)
        switch outcome.result {
        case .success(let grams)?:
            report.ok = true
            if gesture == .short {
                report.tare = grams
                report.message = "tare done: \(Self.grams(grams))"
            } else {
                report.offset = grams
                report.message = "zero done: \(Self.grams(grams)) from calibrated zero"
            }
            return report
        case .failure(let refusal)?:
            report.reason = refusal.code.rawValue
            report.message = refusal.description
            return report
        case nil:
            break
        }
        let (reason, why): (String, String) =
            if outcome.unknownSensor {
                ("unknownSensor", "no sensor \(sensor) runs — check the button's sensors")
            } else if let outage = outcome.outage {
                (Refusal.Code.sensorUnavailable.rawValue, "the sensor delivers no samples (\(outage))")
            } else if outcome.reading?.isOverload == true {
                ("overload", "the sensor is overloaded — take some of the load off")
            } else if outcome.reading?.isUnderload == true {
                ("underload", "the sensor is underloaded — check that nothing lifts the pan")
            } else {
                (Refusal.Code.notStable.rawValue, "the load was not stable within 10 s — keep the pan still")
            }
        report.message = "\(word) refused: \(why)"
        report.reason = reason
        return report
    }
}
