import PlumDaemonConfig
import PlumSettings
import Testing

/// `division_grams` against the number of divisions (issue 25, item 4): every R 76 limit the
/// engine keeps is in d and assumes e = d, which holds up to 10 000 divisions (class III).
@Suite("division_grams and max_divisions")
struct DivisionLimitTests {
    static func parse(_ scale: String, sensor: String = "") throws(ConfigurationError) -> PlumConfiguration {
        try PlumConfiguration.parse(
            "[scale]\n\(scale)\n[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n\(sensor)", file: "p.toml")
    }

    @Test("38 500 divisions are refused, naming the keys, the values, the count and what to do")
    func refused() {
        do {
            _ = try Self.parse("division_grams = 0.01")
            Issue.record("385 g at 0.01 g was accepted")
        } catch {
            let text = error.description
            for words in [
                "division_grams = 0.01", "capacity_grams = 385", "38500 divisions", "max_divisions = 10000",
                "use division_grams = 0.05 or more", "raise max_divisions"
            ] {
                #expect(text.contains(words), "no '\(words)' in: \(text)")
            }
        }
    }

    @Test("a sensor's own division is named as its key; max_divisions raises the limit; 10 000 is allowed")
    func sensorKeyAndOverride() throws {
        do {
            _ = try Self.parse("", sensor: "division_grams = 0.02")
            Issue.record("385 g at 0.02 g (19 250 divisions) was accepted")
        } catch {
            #expect(error.key.hasSuffix("division_grams"), "\(error.key)")
        }
        let raised = try Self.parse("max_divisions = 50000\ndivision_grams = 0.01")
        #expect(raised.scaleSettings(for: raised.sensors[0]).maxDivisions == 50_000)
        _ = try Self.parse("capacity_grams = 1000\ndivision_grams = 0.1")
    }
}
