/// When the max-force cue and the new-weight cue fire.
public struct CueConfiguration: Hashable, Sendable {
    /// Fraction of capacity at which the max-force cue fires (1: 100 %).
    public var maxForceFraction: Double = 1
    /// The cue re-arms only after the net load falls below this fraction of capacity.
    public var rearmFraction: Double = 0.9
    /// At most one max-force cue per this many nanoseconds.
    public var minimumInterval: UInt64 = 1_000_000_000
    /// Emit a short cue when a new stable, loaded weight is reached.
    public var stableWeightCue: Bool = false

    public init() {}

    public func validate() -> Result<Void, Refusal> {
        guard maxForceFraction > 0, rearmFraction >= 0, rearmFraction < maxForceFraction else {
            return .failure(
                Refusal(
                    .invalidConfiguration,
                    "cue re-arm level \(rearmFraction) is not below the cue level \(maxForceFraction)",
                    hint: "use cue at 1.0 and re-arm at 0.9 of capacity"))
        }
        return .success(())
    }
}
