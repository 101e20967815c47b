/// olkal/HX711_ADC (Arduino) `smoothedData()`: a ring of SAMPLES + IGN_HIGH_SAMPLE +
/// IGN_LOW_SAMPLE conversions (16 + 1 + 1 by default); the sum minus the highest and the lowest,
/// shifted right by log2(SAMPLES). The library stores codes as offset binary (`data ^ 0x800000`),
/// so the sum is positive and the shift is a floor division; it outputs on every conversion
/// once the ring has been filled at start-up.
package struct HX711ADCMovingAverage: ReadingFilter {
    package let samples: Int
    private let shift: Int
    private var ring: [Int64]
    private var index = 0
    private var filled = 0

    /// - Parameter samples: SAMPLES, a power of two (the library's default is 16).
    package init(samples: Int = 16) {
        var shift = 0
        while (1 << (shift + 1)) <= max(1, samples) { shift += 1 }
        self.samples = 1 << shift
        self.shift = shift
        ring = Array(repeating: 0, count: (1 << shift) + 2)
    }

    package var name: String { "HX711_ADC moving average \(samples) (−min −max)" }

    package mutating func process(_ raw: Double) -> Double? {
        let offsetBinary = Int64(raw) + 0x80_0000
        ring[index] = offsetBinary
        index = (index + 1) % ring.count
        filled = min(filled + 1, ring.count)
        // At start-up the library fills the whole set before its first output (`tare` waits
        // for it); outputs before that would be a partial, biased sum.
        guard filled == ring.count else { return nil }
        let sum = ring.reduce(0, +) - ring.max()! - ring.min()!
        return Double((sum >> Int64(shift)) - 0x80_0000)
    }
}
