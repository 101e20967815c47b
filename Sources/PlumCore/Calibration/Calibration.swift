/// A committed calibration: the fitted model with everything that justifies it.
///
/// It is what the store writes and what every ``Reading`` names as the calibration in use.
public struct Calibration: Hashable, Sendable, Codable {
    public var sensor: SensorIdentity
    public var kind: SensorKind
    public var model: CalibrationModel
    /// Capacity in grams the fit was checked against.
    public var capacity: Double
    /// The points as captured, in capture order.
    public var points: [CalibrationPoint]
    /// Fitted minus known grams, one per point, same order.
    public var residuals: [Double]
    public var quality: FitQuality
    /// When it was made, ISO 8601 UTC as the daemon's clock gave it (e.g. `2026-05-01T09:30:00Z`).
    public var createdAt: String
    /// What the user must know about the result, e.g. that an FSR is only an indicator.
    public var notice: String?

    public init(
        sensor: SensorIdentity, kind: SensorKind, model: CalibrationModel, capacity: Double,
        points: [CalibrationPoint], residuals: [Double], quality: FitQuality, createdAt: String,
        notice: String? = nil
    ) {
        self.sensor = sensor
        self.kind = kind
        self.model = model
        self.capacity = capacity
        self.points = points
        self.residuals = residuals
        self.quality = quality
        self.createdAt = createdAt
        self.notice = notice
    }

    /// Grams for a signal, or `nil` beyond the model's invertible range.
    public func grams(fromSignal signal: Double) -> Double? {
        guard let grams = model.grams(fromSignal: signal), grams.isFinite else { return nil }
        return grams
    }
}
