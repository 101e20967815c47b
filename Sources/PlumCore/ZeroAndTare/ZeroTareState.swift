/// A sensor's zero offset and tare as they were last set, and the calibration they belong to:
/// what PlumStore's `ZeroTareStore` keeps so that a power cut does not lose them.
public struct ZeroTareState: Hashable, Sendable, Codable {
    /// The sensor's file stem, checked against the file name on load.
    public var sensor: String
    public var calibration: CalibrationReference
    /// Grams by which zero sits above calibrated zero (``WeighingEngine/zeroOffset``), with
    /// what zero-tracking has followed since the last zero-setting.
    public var zeroOffset: Double
    /// The power-up zero the zero range is measured from (``WeighingEngine/zeroReference``);
    /// 0 in files written before it was kept, whose ranges were measured from calibrated zero.
    public var zeroReference: Double
    /// The tare in grams (``WeighingEngine/tare``).
    public var tare: Double

    public init(
        sensor: String, calibration: CalibrationReference, zeroOffset: Double, zeroReference: Double = 0,
        tare: Double
    ) {
        self.sensor = sensor
        self.calibration = calibration
        self.zeroOffset = zeroOffset
        self.zeroReference = zeroReference
        self.tare = tare
    }

    private enum CodingKeys: String, CodingKey {
        case sensor, calibration, zeroOffset, zeroReference, tare
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sensor = try container.decode(String.self, forKey: .sensor)
        calibration = try container.decode(CalibrationReference.self, forKey: .calibration)
        zeroOffset = try container.decode(Double.self, forKey: .zeroOffset)
        zeroReference = try container.decodeIfPresent(Double.self, forKey: .zeroReference) ?? 0
        tare = try container.decode(Double.self, forKey: .tare)
    }
}
