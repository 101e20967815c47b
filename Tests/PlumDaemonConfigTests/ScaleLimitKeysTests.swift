import PlumDaemonConfig
import PlumSettings
import Testing

/// `[scale]` keys for the OIML R 76 limits the engine keeps in d: Min
/// (`min_weight_divisions`) and zero-tracking's rate and band (R 76-1 4.5.7).
@Suite("min_weight_divisions and zero-tracking's rate and band")
struct ScaleLimitKeysTests {
    static func parse(_ scale: String) throws(ConfigurationError) -> PlumConfiguration {
        try PlumConfiguration.parse(
            "[scale]\n\(scale)\n[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n", file: "p.toml")
    }

    @Test(
        "a value beyond the limit is refused, naming the file, the line, the key and what is allowed",
        arguments: [
            ("zero_tracking_rate_divisions = 1", "zero_tracking_rate_divisions = 1.0 is out of range", "0.5"),
            ("zero_tracking_band_divisions = 0.8", "zero_tracking_band_divisions = 0.8 is out of range", "0.5"),
            ("min_weight_divisions = 2.5", "min_weight_divisions = 2.5 is not a whole number", "use 20"),
            ("min_weight_divisions = -1", "min_weight_divisions = -1.0 is out of range", "20 for OIML class III")
        ])
    func refused(line: String, says: String, allowed: String) {
        do {
            _ = try Self.parse("capacity_grams = 385\n\(line)")
            Issue.record("\(line) was accepted")
        } catch {
            let text = error.description
            #expect(text.contains("p.toml:3"), "no file and line in: \(text)")
            #expect(text.contains(says) && text.contains(allowed), "\(text)")
        }
    }

    @Test("accepted values reach the scale settings")
    func accepted() throws {
        let configuration = try Self.parse(
            "min_weight_divisions = 50\nzero_tracking_rate_divisions = 0.25\nzero_tracking_band_divisions = 0.5")
        let settings = configuration.scaleSettings(for: configuration.sensors[0])
        #expect(settings.minimumWeightDivisions == 50)
        #expect(settings.zeroTrackingRateDivisions == 0.25 && settings.zeroTrackingBandDivisions == 0.5)
    }
}
