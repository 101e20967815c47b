/// One known weight and the signal the sensor gave for it while stable.
public struct CalibrationPoint: Hashable, Sendable, Codable {
    /// The known mass on the pan, grams (0 for the empty pan).
    public var grams: Double
    /// Mean signal while stable: counts or microsiemens.
    public var signal: Double
    /// Standard deviation of the signal over the capture (same unit as `signal`).
    public var noise: Double
    /// Samples averaged.
    public var samples: Int

    public init(grams: Double, signal: Double, noise: Double = 0, samples: Int = 1) {
        self.grams = grams
        self.signal = signal
        self.noise = noise
        self.samples = samples
    }
}
