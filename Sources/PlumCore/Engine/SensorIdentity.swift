/// Which physical sensor, channel and gain a calibration belongs to.
///
/// A calibration is valid only for the sensor and ADC gain it was made with: halving the HX711
/// gain halves the counts per gram. The store keeps one file per identity (``fileStem``).
public struct SensorIdentity: Hashable, Sendable, Codable {
    /// The sensor's name in the configuration, e.g. `left`; letters, digits, `-` and `_`.
    public var id: String
    /// The hardware, e.g. `HX711 + 1 kg cell` or `ADS1115 + FSR 402`.
    public var model: String
    /// The ADC channel, e.g. `A` or `AIN0`, where the chip has several.
    public var channel: String?
    /// The ADC gain, e.g. 128 or 64 for the HX711.
    public var gain: Int?

    public init(id: String, model: String, channel: String? = nil, gain: Int? = nil) {
        self.id = id
        self.model = model
        self.channel = channel
        self.gain = gain
    }

    /// The file name without extension: `left`, or `left-gain128` when a gain is set.
    public var fileStem: String { gain.map { "\(id)-gain\($0)" } ?? id }

    /// Refuses ids that would not make a safe, portable file name.
    public func validate() -> Result<Void, Refusal> {
        let allowed = id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
        guard !id.isEmpty, id.count <= 64, allowed, id.first != "-" else {
            return .failure(
                Refusal(
                    .invalidConfiguration, "sensor id '\(id)' is not a usable name",
                    hint: "use 1 to 64 letters, digits, '-' or '_', not starting with '-'"))
        }
        return .success(())
    }
}
