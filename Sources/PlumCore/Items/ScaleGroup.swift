/// Facts across sensors: which loaded pan is heaviest (the Plum-O-Meter) and the combined
/// total (a platform on several load cells).
public enum ScaleGroup {
    /// Which pan to highlight.
    public enum Heaviest: Hashable, Sendable {
        /// No calibrated pan is loaded.
        case none
        /// This sensor's pan is the heaviest.
        case sensor(String)
        /// These loaded pans are equal within the tie tolerance (in input order).
        case tie([String])
    }

    /// The sum of the pans, or why there is none.
    public enum Total: Hashable, Sendable {
        /// Sum of the net loads, high resolution.
        case grams(Double)
        case unavailable(reason: String)
    }

    public struct Summary: Hashable, Sendable {
        public var heaviest: Heaviest
        public var total: Total
        /// Sensors whose pan counts as loaded, in input order.
        public var loaded: [String]
        /// Every reading is stable.
        public var allStable: Bool
    }

    /// Summarises one latest reading per sensor.
    ///
    /// A pan is a candidate for heaviest when it is calibrated and loaded (net ≥ the loaded
    /// threshold, 20 d by default, or overloaded). An overloaded pan outweighs any pan in range;
    /// two overloaded pans tie. Pans whose net loads differ by no more than `tieTolerance` tie.
    ///
    /// - Parameter tieTolerance: grams; `nil` uses the coarsest division among the readings, so
    ///   pans that would show the same number are a tie.
    public static func summarize(_ readings: [Reading], tieTolerance: Double? = nil) -> Summary {
        let candidates = readings.filter { $0.isCalibrated && $0.isLoaded && !$0.isUnderload }
        let tolerance = tieTolerance ?? readings.map(\.division.grams).max() ?? 0
        func weight(_ reading: Reading) -> Double { reading.isOverload ? .infinity : (reading.net ?? -.infinity) }

        let heaviest: Heaviest
        if let top = candidates.map(weight).max() {
            let leaders = candidates.filter {
                let w = weight($0)
                return w == top || (top.isFinite && top - w <= tolerance)
            }
            heaviest = leaders.count == 1 ? .sensor(leaders[0].sensor) : .tie(leaders.map(\.sensor))
        } else {
            heaviest = .none
        }

        let total: Total
        if readings.isEmpty {
            total = .unavailable(reason: "no sensors")
        } else if let missing = readings.first(where: { !$0.isCalibrated }) {
            total = .unavailable(reason: "sensor \(missing.sensor) is not calibrated")
        } else if let over = readings.first(where: { $0.isOverload }) {
            total = .unavailable(reason: "sensor \(over.sensor) is overloaded")
        } else if let under = readings.first(where: { $0.isUnderload }) {
            total = .unavailable(reason: "sensor \(under.sensor) is below its zero range")
        } else if let silent = readings.first(where: { $0.net == nil }) {
            total = .unavailable(reason: "sensor \(silent.sensor) has no valid signal yet")
        } else {
            total = .grams(readings.compactMap(\.net).reduce(0, +))
        }
        return Summary(
            heaviest: heaviest, total: total, loaded: readings.filter(\.isLoaded).map(\.sensor),
            allStable: readings.allSatisfy(\.isStable))
    }
}
