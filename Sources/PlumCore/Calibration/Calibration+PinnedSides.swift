extension Calibration {
    /// Whether a sample is pinned at the overload side or the underload side of the converter:
    /// flagged so by the ADC, or (`measured` false) a finite signal the calibration cannot turn
    /// into grams, such as one past a quadratic's turning point, judged by the side it lies on.
    ///
    /// For a cell wired in reverse (negative counts per gram) a pinned bottom code is the
    /// overload, so the ADC's flags swap.
    static func pinnedSides(
        of input: EngineInput, calibration: Calibration?, measured: Bool, overloadLimit: Double
    ) -> (high: Bool, low: Bool) {
        var high = input.flags.contains(.overRange)
        var low = input.flags.contains(.underRange)
        guard let calibration else { return (high, low) }
        if case .polynomial(_, let scale, _) = calibration.model, scale < 0 { swap(&high, &low) }
        if !measured, input.signal.isFinite {
            let highSide = calibration.model.signal(fromGrams: overloadLimit)
            let lowSide = calibration.model.signal(fromGrams: 0)
            if abs(input.signal - highSide) < abs(input.signal - lowSide) { high = true } else { low = true }
        }
        return (high, low)
    }
}
