/// One `[[alert]]` rule: a sensor's net weight below (or above) a threshold for a while, such as
/// "the fruit bowl is nearly empty".
///
/// A pure value; ``AlertState`` runs it on readings.
public struct AlertRule: Hashable, Sendable {
    /// Which side of the threshold raises the alert.
    public enum Condition: Hashable, Sendable {
        /// Raised when the net weight is below `grams`; cleared above `grams + hysteresis`.
        case below(grams: Double)
        /// Raised when the net weight is above `grams`; cleared below `grams - hysteresis`.
        case above(grams: Double)
    }

    public var name: String
    public var sensor: String
    public var condition: Condition
    /// How far past the threshold the weight must come back to clear the alert, in grams (≥ 0).
    public var hysteresis: Double
    /// How long the condition must hold on valid readings before the alert is raised (≥ 0).
    public var holdNanoseconds: UInt64
    /// Pulse the cue line when the alert is raised.
    public var cue: Bool

    public init(
        name: String, sensor: String, condition: Condition, hysteresis: Double = 0, holdNanoseconds: UInt64 = 0,
        cue: Bool = false
    ) {
        self.name = name
        self.sensor = sensor
        self.condition = condition
        self.hysteresis = hysteresis
        self.holdNanoseconds = holdNanoseconds
        self.cue = cue
    }

    /// The threshold in grams, whichever side it is on.
    public var threshold: Double {
        switch condition {
        case .below(let grams), .above(let grams): grams
        }
    }

    /// The weight is past the threshold: the alert should be raised (after the hold).
    public func isMet(by grams: Double) -> Bool {
        switch condition {
        case .below(let threshold): grams < threshold
        case .above(let threshold): grams > threshold
        }
    }

    /// The weight is back past the threshold by the hysteresis: an active alert clears.
    public func isCleared(by grams: Double) -> Bool {
        switch condition {
        case .below(let threshold): grams > threshold + hysteresis
        case .above(let threshold): grams < threshold - hysteresis
        }
    }
}
