package import PlumCore
package import PlumProtocol

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

extension ReportBuilder {
    /// The `BUTTON` report of `gesture`'s outcome on `sensor`: done with its grams, or refused
    /// with a code and the reason in words, said once ("tare refused: …", never "refused:
    /// tare refused: …"). A press that found no stable load within its wait is `notStable`, as
    /// `?TARE` would have answered on a moving pan.
    package static func buttonReport(
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
                report.message = "tare done: \(ReportBuilder.grams(grams))"
            } else {
                report.offset = grams
                report.message = "zero done: \(ReportBuilder.grams(grams)) from calibrated zero"
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
