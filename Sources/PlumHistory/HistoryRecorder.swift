/// Turns a stream of readings into what the history stores: stable readings and per-minute
/// summaries. A pure value, so the rules are tested without a database or a clock.
///
/// - A stable reading is kept once per placement: when a pan becomes stable at a new weight,
///   and while it stays stable only when the weight moves by at least `division` grams (a scale
///   reporting ten times a second would otherwise store the same weight 864 000 times a day).
///   A placement ends when the load leaves its weight by ``departure`` divisions or more, or
///   overloads; a moment unstable without leaving it (a knock, one report of a settled load
///   called unstable), an outage of the sensor or a restart of the daemon is the same placement,
///   and is not stored again when the pan settles at the same weight.
/// - A minute is summarised when the first reading of a later minute arrives; readings without
///   grams or out of range are left out, and a minute with none is not stored.
package struct HistoryRecorder: Sendable {
    /// The smallest change of a stable weight worth storing again, in grams.
    package var division: Double

    /// How far, in divisions, the load must leave a stored weight before settling at that
    /// weight again is a new placement: as far as the smallest item the engine counts.
    package static let departure = 10.0

    private var lastStable: [String: Double] = [:]
    /// The pans whose load left their last stored weight since it was stored.
    private var departed: Set<String> = []
    private var open: [String: Accumulator] = [:]

    package init(division: Double = 0.1) {
        self.division = division
    }

    /// Takes up where a previous run left off: `grams` is the last stable weight stored for
    /// `sensor`, so a restarted service does not store the placement on the pan again.
    package mutating func resume(sensor: String, lastStored grams: Double) {
        lastStable[sensor] = grams
        departed.remove(sensor)
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
        if sample.outOfRange { departed.insert(sample.sensor) }
        // No grams (a sensor in an outage) says nothing about the load: the placement goes on.
        guard let grams = sample.grams, grams.isFinite, !sample.outOfRange else { return output }
        open[sample.sensor, default: Accumulator(minute: minute)].add(grams)
        let previous = lastStable[sample.sensor]
        if let previous, abs(grams - previous) >= division * Self.departure * 0.999 {
            departed.insert(sample.sensor)
        }
        guard sample.stable else { return output }
        if previous == nil || departed.contains(sample.sensor) || abs(grams - previous!) >= division * 0.999 {
            output.stable = StableReading(sensor: sample.sensor, time: sample.time, grams: grams)
            lastStable[sample.sensor] = grams
            departed.remove(sample.sensor)
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
