/// A small, fast, seeded random number generator (SplitMix64), so simulated noise, plums and
/// faults are the same on every run with the same seed: tests and benchmarks replay exactly.
///
/// SplitMix64 (Steele, Lea and Flood, 2014) passes BigCrush and needs one word of state.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A second Gaussian from the last Box–Muller pair, if any.
    private var spareGaussian: Double?

    public init(seed: UInt64) { state = seed }

    /// A seed spread over the whole state: SplitMix64's first outputs for neighbouring seeds
    /// (1, 2, 3 …) share their top bits, so two pans seeded 1 and 2 would get nearly the same
    /// plums at nearly the same times. Multiplying by an odd constant and mixing once makes
    /// neighbouring seeds start far apart.
    public static func scattered(_ seed: UInt64) -> UInt64 {
        var z = (seed &+ 1) &* 0xD6E8_FEB8_6659_FD93
        z = (z ^ (z >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return z ^ (z >> 32)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 53 bits of precision.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A normally distributed value with mean 0 and standard deviation 1 (Box–Muller).
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        var u1 = unit()
        while u1 <= .leastNormalMagnitude { u1 = unit() }
        let u2 = unit()
        let radius = (-2 * _log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * _sin(angle)
        return radius * _cos(angle)
    }

    /// A child generator for an independent stream (one per sensor, say) from this one.
    public mutating func split() -> SeededRandom { SeededRandom(seed: next()) }
}

#if canImport(Glibc)
    import Glibc
    @inline(__always) private func _log(_ x: Double) -> Double { Glibc.log(x) }
    @inline(__always) private func _sin(_ x: Double) -> Double { Glibc.sin(x) }
    @inline(__always) private func _cos(_ x: Double) -> Double { Glibc.cos(x) }
#endif
