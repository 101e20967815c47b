/// A sensor's zero offset and tare as they were last set, and the calibration they belong to:
/// what ``ZeroTareStore`` keeps so that a power cut does not lose them.
public struct ZeroTareState: Hashable, Sendable, Codable {
    /// The sensor's file stem, checked against the file name on load.
    public var sensor: String
    public var calibration: CalibrationReference
    /// Grams by which zero sits above calibrated zero (``WeighingEngine/zeroOffset``).
    public var zeroOffset: Double
    /// The tare in grams (``WeighingEngine/tare``).
    public var tare: Double

    public init(sensor: String, calibration: CalibrationReference, zeroOffset: Double, tare: Double) {
        self.sensor = sensor
        self.calibration = calibration
        self.zeroOffset = zeroOffset
        self.tare = tare
    }
}
