public import PlumHardware

/// Plums placed on the pan one at a time and taken off again, with the pan ringing after
/// each placement and removal: a seeded, deterministic ``LoadProfile``.
///
/// Each plum weighs a uniform 60–120 g, stays a few seconds and is followed by an empty pan.
/// A placement or removal is a step through an underdamped mechanical response,
/// `step · (1 − depth · e^(−t/τ) · cos 2πft)`: a few hertz, decaying over a few hundred
/// milliseconds, which is what a weighing engine's stability detection must wait out. The
/// whole schedule is drawn at creation from the seed, so ``grams(at:)`` is a pure function of time.
public struct PlumLoadModel: LoadProfile, Hashable, Sendable {
    /// The shape of the plum traffic.
    public struct Configuration: Hashable, Sendable {
        public var plumGrams: ClosedRange<Double> = 60...120
        /// How long a plum stays on the pan, in seconds.
        public var dwellSeconds: ClosedRange<Double> = 3...8
        /// How long the pan stays empty between plums, in seconds.
        public var gapSeconds: ClosedRange<Double> = 2...6
        /// The pan's ringing frequency, in hertz.
        public var ringingFrequency: Double = 4
        /// The ringing's decay time constant, in seconds.
        public var ringingDecay: Double = 0.1
        /// 1 is a step released at once (the response starts from the old weight); smaller is gentler.
        public var ringingDepth: Double = 1
        /// A constant load under the plums (a bowl), in grams.
        public var baseGrams: Double = 0
        /// How long the schedule runs; after it the pan stays empty.
        public var duration: Duration = .seconds(3600)

        public init() {}
    }

    /// One plum's visit.
    public struct Placement: Hashable, Sendable {
        public var arrival: MonotonicInstant
        public var departure: MonotonicInstant
        public var grams: Double
    }

    public let configuration: Configuration
    /// Every plum, in order of arrival; visits do not overlap.
    public let placements: [Placement]

    /// Draws the schedule.
    /// - Parameters:
    ///   - seed: the same seed gives the same plums at the same times.
    ///   - start: when the first gap begins (usually the clock's now).
    public init(seed: UInt64, start: MonotonicInstant, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var random = SeededRandom(seed: SeededRandom.scattered(seed))
        func draw(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
        }
        // At least a millisecond per gap and visit, so odd ranges (zero, negative, NaN) still
        // give a finite schedule and never a trap.
        func nanoseconds(_ seconds: Double) -> UInt64 {
            seconds >= 0.001 && seconds < 1e6 ? UInt64((seconds * 1e9).rounded()) : 1_000_000
        }
        let end = start.advanced(byNanoseconds: configuration.duration.nanoseconds)
        var placements: [Placement] = []
        var time = start
        while true {
            let arrival = time.advanced(byNanoseconds: nanoseconds(draw(configuration.gapSeconds)))
            let grams = draw(configuration.plumGrams)
            let departure = arrival.advanced(byNanoseconds: nanoseconds(draw(configuration.dwellSeconds)))
            guard departure <= end else { break }
            placements.append(Placement(arrival: arrival, departure: departure, grams: grams))
            time = departure
        }
        self.placements = placements
    }

    public func grams(at time: MonotonicInstant) -> Double {
        // The last placement that has arrived by `time` (binary search).
        var low = 0
        var high = placements.count
        while low < high {
            let middle = (low + high) / 2
            if placements[middle].arrival <= time { low = middle + 1 } else { high = middle }
        }
        var total = configuration.baseGrams
        guard low > 0 else { return total }
        let current = placements[low - 1]
        total += response(step: current.grams, since: current.arrival, at: time)
        if time >= current.departure {
            total += response(step: -current.grams, since: current.departure, at: time)
        }
        // The previous removal may still be ringing when the next plum lands.
        if low >= 2 {
            let previous = placements[low - 2]
            total += ringing(step: -previous.grams, since: previous.departure, at: time)
        }
        return total
    }

    /// The pan's response to a step, `step · (1 − ringing)`.
    private func response(step: Double, since start: MonotonicInstant, at time: MonotonicInstant) -> Double {
        step - ringing(step: step, since: start, at: time)
    }

    /// The part of a step's response still ringing: `step · depth · e^(−t/τ) · cos 2πft`.
    private func ringing(step: Double, since start: MonotonicInstant, at time: MonotonicInstant) -> Double {
        let t = Double(time.nanoseconds(since: start)) / 1e9
        let tau = configuration.ringingDecay
        guard tau > 0, t < 40 * tau else { return 0 }
        return step * configuration.ringingDepth * LoadMath.exp(-t / tau)
            * LoadMath.cos(2 * Double.pi * configuration.ringingFrequency * t)
    }
}
