/// Automatic zero-tracking: follows slow drift at zero, never faster than its rate.
///
/// OIML R 76-1 allows it only while the reading is stable and within 0.5 d of zero, at no
/// more than 0.5 d per second. A plum placed slowly moves faster than that, so it is never
/// swallowed into zero.
public struct ZeroTracker: Sendable {
    /// Grams per second.
    public let rate: Double
    /// Grams either side of zero within which tracking acts.
    public let band: Double
    private var lastTime: UInt64?

    public init(rate: Double, band: Double) {
        self.rate = rate
        self.band = band
    }

    /// How far to move zero for this reading: toward the gross value, at most rate × elapsed.
    ///
    /// - Parameters:
    ///   - gross: the gross reading in grams before correction.
    ///   - stable: whether the stability detector says stable.
    ///   - time: the reading's monotonic time in nanoseconds.
    /// - Returns: grams to add to the zero offset (0 when tracking must not act).
    public mutating func correction(gross: Double, stable: Bool, time: UInt64) -> Double {
        defer { lastTime = time }
        guard let last = lastTime, time > last, stable, gross.isFinite, abs(gross) <= band else {
            return 0
        }
        // A long gap does not earn a large correction: at most one second's worth.
        let elapsed = min(Double(time - last) / 1e9, 1)
        let limit = rate * elapsed
        return min(limit, max(-limit, gross))
    }
}
