package import PlumCore

extension Station {
    /// What a push button's press does: a short press tares `sensors`, a long press zeroes
    /// them, each on its next stable reading (within 10 s), as MT-SICS `T` and `Z` do: the
    /// hand that pressed the button has usually shaken the pan. The zero and tare are saved as
    /// a client's are, and each outcome is logged.
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
        for (sensor, outcome) in zip(sensors, outcomes) {
            switch outcome.result {
            case .success(let grams)?:
                logger.notice("button: \(sensor) \(word) done (\(FixedPoint.text(grams, decimals: 3)) g)")
            case .failure(let refusal)?:
                logger.warning("button: \(sensor) \(word) refused: \(refusal)")
            case nil:
                let why =
                    outcome.outage.map { "the sensor delivers no samples (\($0))" }
                    ?? (outcome.timedOut ? "not stable within 10 s" : "no stable reading")
                logger.warning("button: \(sensor) \(word) not done: \(why)")
            }
        }
        return outcomes
    }
}
