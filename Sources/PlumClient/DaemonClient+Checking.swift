import PlumProtocol

extension DaemonClient {
    /// Check-weighing (`?CHECK`): `sensor`'s stable `WEIGHT` reports then say `under`, `ok` or
    /// `over` `target` − `minus` to `target` + `plus` grams; with `cue` an ok pulses the cue
    /// output. A nil `target` stops it.
    public func check(
        sensor: String, target: Double?, minus: Double? = nil, plus: Double? = nil, cue: Bool? = nil,
        timeout: Duration = .seconds(5)
    ) throws(ClientError) -> CheckReply {
        let request = CheckRequest(sensor: sensor, target: target, minus: minus, plus: plus, cue: cue)
        return try self.request(.check(request), timeout: timeout) { report in
            if case .check(let reply) = report, reply.sensor == sensor { reply } else { nil }
        }
    }
}
