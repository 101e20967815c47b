public import PlumHardware

/// The physical load on a simulated sensor over time: grams-force on the pan at each instant.
///
/// Chip models sample it when they start a conversion. Implementations range from a constant
/// weight in a unit test to plums arriving, ringing and leaving.
public protocol LoadProfile {
    /// The force on the sensor at `time`, in grams (1 g = 9.806 65 mN).
    func grams(at time: MonotonicInstant) -> Double
}

/// A load that never changes.
public struct ConstantLoad: LoadProfile, Sendable {
    public var grams: Double
    public init(grams: Double) { self.grams = grams }
    public func grams(at time: MonotonicInstant) -> Double { grams }
}
