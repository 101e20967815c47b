/// Turns a stream of readings into what the history stores: stable readings and per-minute
/// summaries. A pure value, so the rules are tested without a database or a clock.
///
/// - A stable reading is kept when a pan becomes stable, and while it stays stable only when
///   the weight moves by at least `division` grams (a scale reporting ten times a second would
///   otherwise store the same weight 864 000 times a day).
/// - A minute is summarised when the first reading of a later minute arrives; readings without
///   grams or out of range are left out, and a minute with none is not stored.
package struct HistoryRecorder: Sendable {
    /// The smallest change of a stable weight worth storing again, in grams.
    package var division: Double

    private var lastStable: [String: Double] = [:]
    private var open: [String: Accumulator] = [:]

    package init(division: Double = 0.1) {
        self.division = division
    }

    /// What one sample adds to the history.
    package struct Output: Hashable, Sendable {
        package var stable: StableReading?
        package var minute: MinuteSummary?
    }

    /// Takes one sample; returns the stable reading and the finished minute it produced, if any.
    package mutating func record(_ sample: HistorySample) -> Output {
        var output = Output()
        let minute = Int64((sample.time / 60).rounded(.down)) * 60
        if let current = open[sample.sensor], current.minute != minute {
            output.minute = current.summary(sensor: sample.sensor)
            open[sample.sensor] = nil
        }
        guard let grams = sample.grams, grams.isFinite, !sample.outOfRange else {
            lastStable[sample.sensor] = nil
            return output
        }
        open[sample.sensor, default: Accumulator(minute: minute)].add(grams)
        if sample.stable {
            let previous = lastStable[sample.sensor]
            if previous == nil || abs(grams - previous!) >= division * 0.999 {
                output.stable = StableReading(sensor: sample.sensor, time: sample.time, grams: grams)
                lastStable[sample.sensor] = grams
            }
        } else {
            lastStable[sample.sensor] = nil
        }
        return output
    }

    /// The minutes still open, summarised: for a clean shutdown, so the last partial minute
    /// is not lost.
    package mutating func flush() -> [MinuteSummary] {
        let summaries = open.sorted { $0.key < $1.key }.compactMap { $0.value.summary(sensor: $0.key) }
        open = [:]
        return summaries
    }

    private struct Accumulator: Sendable {
        let minute: Int64
        var min = Double.infinity
        var max = -Double.infinity
        var sum = 0.0
        var count = 0

        init(minute: Int64) { self.minute = minute }

        mutating func add(_ grams: Double) {
            min = Swift.min(min, grams)
            max = Swift.max(max, grams)
            sum += grams
            count += 1
        }

        func summary(sensor: String) -> MinuteSummary? {
            guard count > 0 else { return nil }
            return MinuteSummary(
                sensor: sensor, minute: minute, min: min, mean: sum / Double(count), max: max,
                samples: count)
        }
    }
}
