#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The fitted relation between load and signal.
///
/// Both forms are written as signal = f(grams), the direction in which the error lies (the
/// known weights are exact; the ADC is noisy), and inverted for readings.
public enum CalibrationModel: Hashable, Sendable, Codable {
    /// Load cell: signal = offset + scale·g + curvature·g². `offset` is the empty-pan signal in
    /// counts, `scale` the counts per gram; `curvature` is 0 for a linear fit.
    case polynomial(offset: Double, scale: Double, curvature: Double)
    /// FSR: conductance = leakage + coefficient·g^exponent (µS), with exponent > 0.
    case powerLaw(leakage: Double, coefficient: Double, exponent: Double)

    /// Grams for a signal, or `nil` when the signal lies beyond where the model can be inverted
    /// (past the turning point of a quadratic).
    public func grams(fromSignal signal: Double) -> Double? {
        switch self {
        case .polynomial(let offset, let scale, let curvature):
            let excess = signal - offset
            guard curvature != 0 else { return scale == 0 ? nil : excess / scale }
            let discriminant = scale * scale + 4 * curvature * excess
            guard discriminant >= 0 else { return nil }
            // The root continuous with the linear one, in the cancellation-free form.
            let root = discriminant.squareRoot()
            let denominator = scale + (scale < 0 ? -root : root)
            return denominator == 0 ? nil : 2 * excess / denominator
        case .powerLaw(let leakage, let coefficient, let exponent):
            let excess = signal - leakage
            let magnitude = pow(abs(excess) / coefficient, 1 / exponent)
            // Below the empty-pan conductance the odd extension keeps the map monotone.
            return excess < 0 ? -magnitude : magnitude
        }
    }

    /// The signal the model expects for `grams`.
    public func signal(fromGrams grams: Double) -> Double {
        switch self {
        case .polynomial(let offset, let scale, let curvature):
            return offset + scale * grams + curvature * grams * grams
        case .powerLaw(let leakage, let coefficient, let exponent):
            let magnitude = coefficient * pow(abs(grams), exponent)
            return leakage + (grams < 0 ? -magnitude : magnitude)
        }
    }

    /// dSignal/dGrams at `grams`.
    public func slope(atGrams grams: Double) -> Double {
        switch self {
        case .polynomial(_, let scale, let curvature):
            return scale + 2 * curvature * grams
        case .powerLaw(_, let coefficient, let exponent):
            return coefficient * exponent * pow(max(abs(grams), 1e-9), exponent - 1)
        }
    }
}
