/// Which pan is the heaviest, judged as a person reading the displays would judge it: on what
/// the stable pans show, with a tie where the displays are within one division, so that the
/// yellow highlight does not flicker with the noise between two close plums.
///
/// The instant judgement (``ScaleGroup/summarize(_:tieTolerance:)``) compares the unrounded net
/// loads of every reading: two pans 0.10 g apart with 0.03 g of noise switched between a tie
/// and a leader eight times a second at 80 SPS while both displays stood still. Here:
/// - a pan counts with the weight its **last stable reading displayed** (a moving pan keeps its
///   last settled weight until it settles again; one that has not settled since it started
///   counting counts with what it displays now);
/// - an overloaded pan counts at once, heavier than any pan in range;
/// - an empty, uncalibrated or underloaded pan, or one whose sensor delivers no samples, does
///   not count;
/// - pans whose displayed weights are within one division (the coarsest of the pans) of the
///   top tie, so the leader changes only when another pan is past it by more than one division.
public struct HeaviestJudge: Hashable, Sendable {
    /// The pans in the order a tie names them.
    public let order: [String]
    /// What each counting pan weighs for the judgement: its last stable displayed grams, or
    /// infinity when overloaded.
    private var counted: [String: Double] = [:]
    /// The pans whose counted weight is from a stable reading.
    private var settled: Set<String> = []
    /// Each pan's division, for the tie margin.
    private var divisions: [String: Double] = [:]
    /// The judgement after the last observation.
    public private(set) var heaviest: ScaleGroup.Heaviest = .none

    public init(order: [String]) { self.order = order }

    /// Takes the latest reading of `sensor`, or nil when it has no current reading (its sensor
    /// delivers no samples), and judges again.
    /// - Returns: the new judgement.
    @discardableResult
    public mutating func observe(_ sensor: String, _ reading: Reading?) -> ScaleGroup.Heaviest {
        if let reading {
            divisions[sensor] = reading.division.grams
            if !reading.isCalibrated || reading.isUnderload {
                counted[sensor] = nil
            } else if reading.isOverload {
                counted[sensor] = .infinity
            } else if reading.isStable || !settled.contains(sensor) {
                // A stable display, or the present one of a pan that has not settled since it
                // started counting (a start, a sensor back from an outage): the best there is.
                if case .grams(_, let value) = reading.display, reading.isLoaded {
                    counted[sensor] = value
                } else {
                    counted[sensor] = nil
                }
            }
            if reading.isStable && counted[sensor] != nil { settled.insert(sensor) }
            if counted[sensor] == nil { settled.remove(sensor) }
        } else {
            counted[sensor] = nil
            settled.remove(sensor)
        }
        heaviest = judge()
        return heaviest
    }

    private func judge() -> ScaleGroup.Heaviest {
        guard let top = counted.values.max() else { return .none }
        let margin = divisions.values.max() ?? 0
        let leaders = order.filter { name in
            guard let weight = counted[name] else { return false }
            // Within one division of the top, with room for the binary fraction of a display.
            return weight == top || (top.isFinite && top - weight <= margin * (1 + 1e-9))
        }
        return leaders.count == 1 ? .sensor(leaders[0]) : .tie(leaders)
    }
}
