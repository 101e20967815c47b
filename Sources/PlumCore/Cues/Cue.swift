/// An event the daemon turns into a buzz or a haptic pulse.
public enum Cue: Hashable, Sendable {
    /// The net load reached full scale (the original app vibrates at maximum force).
    case maxForce
    /// A new stable, loaded weight was reached; carries the net grams.
    case stableWeight(grams: Double)
    /// An `[[alert]]` rule with `cue = true` was raised; carries its name.
    case alert(name: String)
}
