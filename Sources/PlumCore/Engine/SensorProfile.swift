internal import FoundationEssentials

/// Defaults for a kind of sensor hardware, loaded from a profile file in `Calibration/profiles`.
///
/// A profile says what a sensor roughly gives (signal per gram, noise) and which division and
/// filter tuning suit it, so that a new sensor starts with sensible settings and can detect
/// stability before it is calibrated. Every tuning field is optional; missing ones keep the
/// engine's defaults.
public struct SensorProfile: Hashable, Sendable, Codable {
    /// The profile schema this code reads.
    public static let schemaVersion = 1

    public var schemaVersion: Int
    /// A short name, e.g. `hx711-1kg-gain128`.
    public var name: String
    public var description: String
    public var kind: SensorKind
    /// The ADC, e.g. `HX711` or `ADS1115`.
    public var adc: String
    /// The ADC gain the figures hold for.
    public var gain: Int?
    /// Output data rate the tuning assumes.
    public var samplesPerSecond: Double
    /// Rough signal per gram (counts or µS): what to expect, for people choosing a sensor.
    /// Before calibration the engine judges stability by the measured noise instead
    /// (``SignalNoise``), which holds for any ADC, gain and unit.
    public var nominalSignalPerGram: Double
    /// Typical noise in grams rms at `samplesPerSecond`.
    public var typicalNoiseGrams: Double
    /// The rated capacity of the cell or FSR, grams (not the scale's capacity).
    public var sensorRatedGrams: Double?
    public var capacity: Double?
    /// The division in grams (1, 2 or 5 × 10^k).
    public var division: Double?
    public var stabilityBand: Double?
    /// The average's time constant in samples at ``samplesPerSecond`` (kept in samples for
    /// the files already written; the engine turns it into a time).
    public var averagingSamples: Int?
    public var stepThreshold: Double?
    public var zeroTracking: Bool?
    /// How long the sensor warms up after start before initial zero-setting and the restore of
    /// a saved zero and tare, in seconds (``ScaleConfiguration/warmUp``).
    public var warmUpSeconds: Double?

    /// Parses a profile file's bytes, refusing unknown schema versions and bad values.
    ///
    /// - Parameter source: the file name, used in refusals.
    public static func decode(_ bytes: [UInt8], source: String) -> Result<SensorProfile, Refusal> {
        let profile: SensorProfile
        do {
            profile = try JSONDecoder().decode(SensorProfile.self, from: Data(bytes))
        } catch {
            return .failure(
                Refusal(
                    .invalidProfile, "profile \(source) is not valid: \(error)",
                    hint: "compare it with the profiles shipped in Calibration/profiles"))
        }
        guard profile.schemaVersion == schemaVersion else {
            return .failure(
                Refusal(
                    .invalidProfile,
                    "profile \(source) has schema version \(profile.schemaVersion); this PlumScale reads "
                        + "\(schemaVersion)",
                    hint: "use a profile from this release"))
        }
        return profile.configuration().map { _ in profile }.mapError {
            Refusal(.invalidProfile, "profile \(source): \($0.reason)", hint: $0.hint)
        }
    }

    /// The engine configuration this profile implies, on top of `base`.
    public func configuration(base: ScaleConfiguration = ScaleConfiguration()) -> Result<ScaleConfiguration, Refusal> {
        var configuration = base
        if let capacity { configuration.capacity = capacity }
        if let division {
            do { configuration.division = try Division(grams: division) } catch { return .failure(error) }
        }
        if let stabilityBand { configuration.stabilityBand = stabilityBand }
        if let averagingSamples {
            // Profiles give the average in samples at their own rate; the engine keeps a time.
            guard averagingSamples > 0, samplesPerSecond > 0, samplesPerSecond.isFinite else {
                return .failure(
                    Refusal(
                        .invalidConfiguration,
                        "averagingSamples \(averagingSamples) at \(samplesPerSecond) SPS is not a time",
                        hint: "use 16 samples at 80 SPS"))
            }
            configuration.filter.averagingTime = UInt64(Double(averagingSamples) / samplesPerSecond * 1e9)
        }
        if let stepThreshold { configuration.filter.stepThreshold = stepThreshold }
        if let zeroTracking { configuration.zeroTracking = zeroTracking }
        if let warmUpSeconds {
            guard warmUpSeconds.isFinite, (0...3_600).contains(warmUpSeconds) else {
                return .failure(
                    Refusal(
                        .invalidConfiguration, "warmUpSeconds \(warmUpSeconds) is outside 0 ... 3600 s",
                        hint: "give the warm-up in seconds, such as 30, or leave it out for none"))
            }
            configuration.warmUp = UInt64((warmUpSeconds * 1e9).rounded())
        }
        if kind == .loadCell, nominalSignalPerGram.isFinite, nominalSignalPerGram > 0 {
            configuration.nominalSignalPerGram = nominalSignalPerGram
        }
        return configuration.validate().map { configuration }
    }
}
