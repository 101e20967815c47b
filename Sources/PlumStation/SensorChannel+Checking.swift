internal import PlumCore
internal import PlumProtocol

/// Check-weighing on one sensor: the limits (``CheckWeigher``), whether an ok pulses the cue,
/// and the last verdict, so the cue sounds once per ok, not with every stable reading.
struct ChannelCheck {
    let weigher: CheckWeigher
    let cue: Bool
    var last: CheckWeigher.Verdict?
}

/// Check-weighing (docs/items.md): `?CHECK` sets a target with tolerances, and every stable
/// `WEIGHT` then says `under`, `ok` or `over`, judged on the stable net rounded to d.
extension SensorChannel {
    /// The reply to `?CHECK` on this sensor: new limits, or none (check-weighing stops).
    mutating func check(_ request: CheckRequest) -> Report {
        guard let target = request.target else {
            checking = nil
            return .check(CheckReply(sensor: name, ok: true, message: "\(name): check-weighing stopped"))
        }
        let minus = request.minus ?? 0
        let plus = request.plus ?? 0
        do {
            let weigher = try CheckWeigher(
                target: target, minus: minus, plus: plus, minimumWeight: engine.configuration.minimumWeight)
            checking = ChannelCheck(weigher: weigher, cue: request.cue ?? false, last: nil)
            let division = engine.configuration.division
            let limits =
                "\(division.format(target - minus)) g to \(division.format(target + plus)) g is ok"
            return .check(
                CheckReply(
                    sensor: name, ok: true, target: target, minus: minus, plus: plus,
                    message: "\(name): checking against \(division.format(target)) g; \(limits)"
                        + ((request.cue ?? false) ? "; the cue sounds on ok" : "")))
        } catch {
            return .check(
                CheckReply(sensor: name, ok: false, reason: error.code.rawValue, message: "\(name): \(error)"))
        }
    }

    /// Puts the verdict on `reading` into this sample's `WEIGHT`, while check-weighing; a
    /// stable reading that turns ok pulses the cue when asked to.
    mutating func checkWeight(_ reading: Reading, _ out: inout Outputs) {
        guard var checking else { return }
        let assessment = checking.weigher.assess(reading)
        let verdict = assessment?.verdict
        out.weight?.report.checked(
            verdict?.rawValue, borderline: assessment?.borderline ?? false, withheld: assessment?.withheld)
        if let verdict {
            if verdict == .ok, checking.last != .ok, checking.cue { out.cues.append(.alert(name: "check-ok")) }
            checking.last = verdict
        }
        self.checking = checking
    }
}
