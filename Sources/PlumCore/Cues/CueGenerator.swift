/// Decides when to emit cues: once per excursion to full scale, with hysteresis and a rate
/// limit, and optionally once per new stable weight.
public struct CueGenerator: Sendable {
    public let configuration: CueConfiguration
    public let capacity: Double
    /// How far, in grams, a stable weight must move to earn a new stable-weight cue.
    public let newWeightDistance: Double
    private var armed = true
    private var lastMaxForce: UInt64?
    private var wasStable = false
    private var lastCuedWeight = 0.0

    public init(configuration: CueConfiguration, capacity: Double, newWeightDistance: Double) {
        self.configuration = configuration
        self.capacity = capacity
        self.newWeightDistance = newWeightDistance
    }

    /// Cues for one reading.
    ///
    /// - Parameters:
    ///   - net: net grams (high resolution), or `nil` when uncalibrated: the stable-weight cue.
    ///   - force: gross grams, tare included (the force on the sensor): the max-force cue;
    ///     `nil` to judge it on `net`.
    ///   - stable: the stability flag of the reading.
    ///   - loaded: whether the pan counts as loaded.
    ///   - time: monotonic nanoseconds.
    public mutating func update(net: Double?, force: Double? = nil, stable: Bool, loaded: Bool, time: UInt64) -> [Cue] {
        guard let net, net.isFinite else {
            wasStable = false
            return []
        }
        var cues: [Cue] = []
        let level = (force.flatMap { $0.isFinite ? $0 : nil } ?? net) / capacity
        if level < configuration.rearmFraction { armed = true }
        if armed, level >= configuration.maxForceFraction {
            let rested = lastMaxForce.map { time < $0 || time - $0 >= configuration.minimumInterval } ?? true
            // While rate-limited the cue stays armed, so it fires once the interval has passed.
            if rested {
                cues.append(.maxForce)
                armed = false
                lastMaxForce = time
            }
        }
        if configuration.stableWeightCue, stable, !wasStable {
            if loaded, abs(net - lastCuedWeight) >= newWeightDistance {
                cues.append(.stableWeight(grams: net))
                lastCuedWeight = net
            } else if !loaded {
                lastCuedWeight = 0
            }
        }
        wasStable = stable
        return cues
    }
}
