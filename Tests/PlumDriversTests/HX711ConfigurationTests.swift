import PlumDrivers
import Testing

@Suite("HX711 configuration values and their errors")
struct HX711ConfigurationTests {
    @Test(
        "Gain names parse to the pulse counts the datasheet assigns",
        arguments: [
            ("A128", HX711Gain.channelA128, 25), (" a128 ", .channelA128, 25), ("128", .channelA128, 25),
            ("B32", .channelB32, 26), ("32", .channelB32, 26), ("A64", .channelA64, 27), ("64", .channelA64, 27)
        ])
    func parsesGain(text: String, gain: HX711Gain, pulses: Int) throws {
        let parsed = try HX711Gain(parsing: text)
        #expect(parsed == gain)
        #expect(parsed.totalPulses == pulses)
        #expect(parsed.extraPulses == pulses - 24)
        #expect(try HX711Gain(parsing: parsed.shortName) == parsed)
    }

    @Test(
        "An unknown gain is an error naming the value and the accepted ones", arguments: ["B64", "A32", "", "gain128"])
    func rejectsGain(text: String) {
        #expect {
            _ = try HX711Gain(parsing: text)
        } throws: { error in
            let error = error as? HX711ConfigurationError
            return error?.setting == "gain" && error?.value == text
                && (error?.description.contains("\"A128\"") ?? false)
        }
    }

    @Test("Only 10 and 80 SPS exist; other rates are errors that say which pin sets them", arguments: [0, 20, 40, 100])
    func rejectsRate(value: Int) {
        #expect(throws: HX711ConfigurationError.self) { try HX711Rate(samplesPerSecond: value) }
        #expect(throws: Never.self) { try HX711Rate(samplesPerSecond: 80) }
        do {
            _ = try HX711Rate(samplesPerSecond: value)
        } catch {
            #expect(error.hint.contains("RATE pin"))
        }
    }

    @Test("Defaults are the datasheet's: A128, 10 SPS, 50 µs clock-high limit, 4 settling conversions, no notices")
    func defaults() throws {
        let configuration = try HX711Configuration().validated()
        #expect(configuration.gain == .channelA128)
        #expect(configuration.clockHighLimit == .microseconds(50))
        #expect(configuration.settlingConversions == 4)
        #expect(configuration.verifyBits)
        #expect(!configuration.isClockHighLimitChanged)
        #expect(configuration.notices.isEmpty)
        #expect(configuration.effectiveReadyTimeout == .milliseconds(500))
        #expect(HX711Configuration(rate: .sps80).effectiveReadyTimeout == .milliseconds(150))
        #expect(configuration.powerDownHold > .microseconds(60))
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var configuration: HX711Configuration
        var setting: String
        var testDescription: String { setting }
    }

    @Test(
        "Unusable settings are rejected with the setting named and a usable value suggested",
        arguments: [
            InvalidCase(configuration: HX711Configuration(readyTimeout: .milliseconds(50)), setting: "ready-timeout"),
            InvalidCase(configuration: HX711Configuration(readyTimeout: .seconds(120)), setting: "ready-timeout"),
            InvalidCase(
                configuration: HX711Configuration(clockHighLimit: .nanoseconds(100)), setting: "clock-high-limit"),
            InvalidCase(
                configuration: HX711Configuration(clockHighLimit: .milliseconds(20)), setting: "clock-high-limit"),
            InvalidCase(configuration: HX711Configuration(settlingConversions: -1), setting: "settling-conversions")
        ])
    func rejectsInvalid(_ testCase: InvalidCase) {
        do {
            _ = try testCase.configuration.validated()
            Issue.record("\(testCase.setting) was accepted")
        } catch {
            #expect(error.setting == testCase.setting)
            #expect(!error.hint.isEmpty)
            #expect(error.description.hasPrefix("hx711 \(testCase.setting) "))
        }
    }

    @Test("Changed safety settings are said in notices; a raised clock-high limit says it is for emulated buses")
    func notices() {
        let raised = HX711Configuration(clockHighLimit: .microseconds(2000), settlingConversions: 1, verifyBits: false)
        #expect(raised.isClockHighLimitChanged)
        #expect(raised.notices.count == 3)
        #expect(
            raised.notices[0] == "clock-high limit raised to 2000 µs (default 50 µs): for slow or emulated buses only")
        // The reset holds PD_SCK high for the kernel driver's 10 ms, or twice a raised limit.
        #expect(raised.powerDownHold == .milliseconds(10))
        #expect(HX711Configuration(clockHighLimit: .milliseconds(8)).powerDownHold == .milliseconds(16))
    }
}
