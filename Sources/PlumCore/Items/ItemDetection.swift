/// How one sensor tells items apart (docs/items.md): the way of weighing, the smallest step
/// that is an item, and how long a level must hold before it counts.
public struct ItemDetection: Hashable, Sendable, Codable {
    /// The two ways of weighing fruit one after another.
    public enum Mode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Place a fruit, read it, take it off: the fall back to the empty pan ends that item.
        case oneAtATime = "one-at-a-time"
        /// Add fruit onto the pan: each rise is an item, each fall a `removed` of the drop.
        case accumulate
    }

    public var mode: Mode
    /// N: the smallest rise (or fall), in divisions, that is an item. Smaller steps (a leaf, a
    /// stalk, zero tracking) move the level the next item is measured from, but are no item.
    public var minimumStep: Int64
    /// Nanoseconds a stable load must hold (within 1 d) before it is a stable level. The
    /// engine's stable flag already needs its window of stillness; this second wait keeps a fruit
    /// that pauses while rolling, or a second fruit following closely, from making two items.
    public var confirmation: UInt64

    /// The defaults: `one-at-a-time`, N = 10 d (1 g at d = 0.1 g), 250 ms to confirm a level.
    public init(mode: Mode = .oneAtATime, minimumStep: Int64 = 10, confirmation: UInt64 = 250_000_000) {
        self.mode = mode
        self.minimumStep = minimumStep
        self.confirmation = confirmation
    }

    /// Checks that the settings can tell an item from the load's own flicker.
    public func validate() -> Result<Void, Refusal> {
        // The detector treats a stable load within 1 d as the same level, so a step of 2 d is
        // the least it can see as a change at all.
        guard minimumStep >= 2 else {
            return .failure(
                Refusal(
                    .invalidConfiguration, "item minimum step \(minimumStep) d is below 2 d",
                    hint: "set min_step_divisions to 2 or more; 10 d (1 g at d = 0.1 g) is the default"))
        }
        guard confirmation <= 10_000_000_000 else {
            return .failure(
                Refusal(
                    .invalidConfiguration, "item confirmation \(confirmation / 1_000_000) ms is over 10 s",
                    hint: "use a few hundred milliseconds; the default is 250 ms"))
        }
        return .success(())
    }
}
