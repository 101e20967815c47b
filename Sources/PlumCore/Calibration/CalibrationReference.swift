/// Which calibration a saved zero and tare were set under: enough to tell whether the one in
/// use now is the same.
///
/// A zero offset or tare in grams means nothing under another calibration (other grams per
/// count), so a restart restores them only when the sensor's calibration is this one: same
/// sensor file, same creation time and the same fitted model.
public struct CalibrationReference: Hashable, Sendable, Codable {
    /// The sensor's file stem, e.g. `left-gain128`.
    public var sensor: String
    /// The calibration's `createdAt`.
    public var createdAt: String
    public var model: CalibrationModel

    public init(sensor: String, createdAt: String, model: CalibrationModel) {
        self.sensor = sensor
        self.createdAt = createdAt
        self.model = model
    }

    public init(_ calibration: Calibration) {
        sensor = calibration.sensor.fileStem
        createdAt = calibration.createdAt
        model = calibration.model
    }

    /// Whether `calibration` is the one referred to.
    public func matches(_ calibration: Calibration?) -> Bool {
        guard let calibration else { return false }
        return self == CalibrationReference(calibration)
    }
}
