import Foundation

/// A tiny deterministic generator (SplitMix64) with Gaussian draws, so noisy tests replay exactly.
struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Normal with mean 0 and the given standard deviation (Box–Muller).
    mutating func gaussian(sigma: Double) -> Double {
        sigma * (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
    }
}
