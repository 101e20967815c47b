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
/// - A placement's first stable weight may still move by one division while its average
///   settles (in the soak, 185.2 g then 185.1 g 1.2 s later; a pan just emptied, 0.1 g then
///   0.2 g 5.1 s later): within ``settling`` seconds of it, a move of one division is the same
///   placement and is not stored. A load that creeps moves far slower (a cell's creep is a few
///   hundredths of a percent over minutes), so its moves are still stored, and so is a move of
///   two divisions or more at any time.
/// - A minute is summarised when the first reading of a later minute arrives; readings without
///   grams or out of range are left out, and a minute with none is not stored.
package struct HistoryRecorder: Sendable {
    /// The smallest change of a stable weight worth storing again, in grams.
    package var division: Double

    /// How far, in divisions, the load must leave a stored weight before settling at that
    /// weight again is a new placement: as far as the smallest item the engine counts.
    package static let departure = 10.0

    /// How long after a placement's first stable weight a move of one division is taken for
    /// its display settling, in seconds of the readings' time: the soak saw 1.2 s on a plum and
    /// 5.1 s on a pan just emptied at 80 samples a second; 10 s holds both and a 10 SPS sensor's
    /// slower average, and a creeping load still moves a division in far longer.
    package static let settling = 10.0

    private var lastStable: [String: Double] = [:]
    /// When each pan's present placement was first stored.
    private var placedAt: [String: Double] = [:]
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
        placedAt[sensor] = nil
        departed.remove(sensor)
    }

    /// What one sample adds to the history.
    package struct Output: Hashable, Sendable {
        package var stable: StableReading?
        package var minute: MinuteSummary?

        package init(stable: StableReading? = nil, minute: MinuteSummary? = nil) {
            self.stable = stable
            self.minute = minute
        }
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
        guard let previous, !departed.contains(sample.sensor) else {
            output.stable = StableReading(sensor: sample.sensor, time: sample.time, grams: grams)
            (lastStable[sample.sensor], placedAt[sample.sensor]) = (grams, sample.time)
            departed.remove(sample.sensor)
            return output
        }
        let moved = abs(grams - previous)
        guard moved >= division * 0.999 else { return output }
        lastStable[sample.sensor] = grams
        if moved < division * 1.5, let placed = placedAt[sample.sensor],
            (placed..<placed + Self.settling).contains(sample.time)
        {
            return output
        }
        output.stable = StableReading(sensor: sample.sensor, time: sample.time, grams: grams)
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
