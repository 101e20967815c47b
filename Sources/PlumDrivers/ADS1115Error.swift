public import PlumHardware

/// Why an ADS1115 operation failed.
///
/// ``ADS1115Sensor`` turns these into ``SensorError`` values that carry the sensor's name.
public enum ADS1115Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// An SMBus transfer or a GPIO operation failed; the error is passed on unchanged.
    case hardware(HardwareError)
    /// No conversion finished in time: OS never read 1, or no conversion-ready edge arrived.
    /// - `waited`: how long the driver waited; `detail`: what it waited for; `hint`: what to check.
    case notReady(subject: String, waited: Duration, detail: String, hint: String)

    public var description: String {
        switch self {
        case .hardware(let error):
            return error.description
        case .notReady(let subject, let waited, let detail, let hint):
            return "\(subject): \(detail) within \(waited.formattedMilliseconds); \(hint)"
        }
    }
}
