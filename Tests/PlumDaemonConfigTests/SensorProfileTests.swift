import Foundation
import PlumDrivers
import Testing

@testable import PlumDaemonConfig
@testable import PlumSettings

/// `[[sensor]] profile = "…"`: the layers defaults → `[scale]` → profile → the sensor's own
/// keys, the profile's wiring defaults, and the errors a user meets.
@Suite("Sensor profiles")
struct SensorProfileTests {
    /// A file with an optional `[scale]` body and one sensor table body.
    static func settings(scale: String = "", sensor: String) throws -> ScaleSettings {
        let text = (scale.isEmpty ? "" : "[scale]\n\(scale)\n") + "[[sensor]]\nname = \"s\"\n\(sensor)\n"
        let configuration = try PlumConfiguration.parse(text, file: "layers.toml")
        return configuration.scaleSettings(for: configuration.sensors[0])
    }

    struct Layering: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var scale: String
        var sensor: String
        var division: Double
        var zeroTracking: Bool
        var averagingMilliseconds: Double?
    }

    static let hx711 = "kind = \"simulated-hx711\""
    static let fsr = "kind = \"simulated-fsr\""

    @Test(
        "each layer overrides the one below it and leaves the rest alone",
        arguments: [
            Layering(testDescription: "the defaults", scale: "", sensor: hx711, division: 0.1, zeroTracking: true),
            Layering(
                testDescription: "[scale] over the defaults", scale: "division_grams = 0.2\naveraging_ms = 400",
                sensor: hx711, division: 0.2, zeroTracking: true, averagingMilliseconds: 400),
            Layering(
                testDescription: "a profile over [scale]", scale: "division_grams = 0.2\naveraging_ms = 400",
                sensor: hx711 + "\nprofile = \"hx711-5kg-gain128\"", division: 0.5, zeroTracking: true,
                averagingMilliseconds: 200),
            Layering(
                testDescription: "[scale] where the profile is silent (zero-tracking of a cell)",
                scale: "zero_tracking = false", sensor: hx711 + "\nprofile = \"hx711-1kg-gain128\"", division: 0.1,
                zeroTracking: false, averagingMilliseconds: 200),
            Layering(
                testDescription: "the FSR profile turns zero-tracking off whatever [scale] says",
                scale: "zero_tracking = true\ndivision_grams = 0.1", sensor: fsr + "\nprofile = \"fsr402-10k-3v3\"",
                division: 1, zeroTracking: false, averagingMilliseconds: 125),
            Layering(
                testDescription: "the sensor's own keys over its profile", scale: "division_grams = 0.1",
                sensor: fsr + "\nprofile = \"fsr402-10k-3v3\"\ndivision_grams = 2\nzero_tracking = true"
                    + "\naveraging_ms = 250",
                division: 2, zeroTracking: true, averagingMilliseconds: 250),
            Layering(
                testDescription: "the sensor's own keys without a profile", scale: "division_grams = 0.5",
                sensor: hx711 + "\ndivision_grams = 1", division: 1, zeroTracking: true)
        ])
    func layering(_ layering: Layering) throws {
        let settings = try Self.settings(scale: layering.scale, sensor: layering.sensor)
        #expect(settings.division == layering.division, "the division came from the wrong layer")
        #expect(settings.tracksZero == layering.zeroTracking, "zero-tracking came from the wrong layer")
        #expect(
            settings.averagingMilliseconds == layering.averagingMilliseconds,
            "the averaging time came from the wrong layer")
    }

    @Test("the FSR profile fills in the divider an ADS1115 table leaves out, and the table's own keys win")
    func fsrWiringDefaults() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [[sensor]]
            name = "fsr1"
            kind = "ads1115"
            bus = 1
            profile = "fsr402-10k-3v3"
            [[sensor]]
            name = "fsr2"
            kind = "ads1115"
            bus = 1
            channel = "AIN1"
            profile = "fsr402-10k-3v3"
            divider_ohms = 4700
            """, file: "fsr.toml")
        guard case .ads1115(let first) = configuration.sensors[0].wiring,
            case .ads1115(let second) = configuration.sensors[1].wiring
        else {
            Issue.record("expected two ADS1115 sensors")
            return
        }
        #expect(
            first.divider == (try FSRDivider(supplyVolts: 3.3, fixedOhms: 10_000, placement: .fsrToSupply)),
            "the profile's divider was not used: the channel would read volts, not an FSR")
        #expect(second.divider?.fixedOhms == 4700, "the table's own divider_ohms lost to the profile's")
        #expect(configuration.sensors.allSatisfy { configuration.scaleSettings(for: $0).zeroTracking == false })
    }

    @Test("an HX711 profile sets the gain it was made for when the table leaves gain out")
    func hx711Gain() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [[sensor]]
            name = "pan"
            kind = "hx711"
            chip = "gpiochip0"
            dout = 5
            sck = 6
            profile = "hx711-1kg-gain64"
            """, file: "gain.toml")
        guard case .hx711(let wiring) = configuration.sensors[0].wiring else {
            Issue.record("expected an HX711")
            return
        }
        #expect(wiring.driver.gain == .channelA64, "the profile's gain 64 was not applied")
        #expect(configuration.scaleSettings(for: configuration.sensors[0]).divisionGrams == 0.2)
    }

    struct BadProfile: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var table: String
        var line: Int
        var says: [String]
    }

    @Test(
        "a profile that cannot be used is refused with the file, the line and what to write instead",
        arguments: [
            BadProfile(
                testDescription: "an unknown name",
                table: "kind = \"hx711\"\nchip = \"c\"\ndout = 5\nsck = 6\nprofile = \"hx711-2kg\"",
                line: 8,
                says: [
                    "profile = \"hx711-2kg\" is not a known profile", "hx711-1kg-gain128", "fsr402-10k-3v3",
                    "iio-hx711-1kg"
                ]),
            BadProfile(
                testDescription: "an FSR profile on a load cell",
                table: "kind = \"simulated-hx711\"\nprofile = \"fsr402-10k-3v3\"", line: 5,
                says: ["made for kind \"ads1115\" or \"simulated-fsr\", not \"simulated-hx711\"", "hx711-5kg-gain64"]),
            BadProfile(
                testDescription: "a load-cell profile on an IIO channel",
                table: "kind = \"iio\"\ndevice = \"hx711\"\nprofile = \"hx711-1kg-gain128\"",
                line: 6, says: ["not \"iio\"", "iio-hx711-1kg"]),
            BadProfile(
                testDescription: "a gain the profile was not made for",
                table: "kind = \"simulated-hx711\"\nprofile = \"hx711-1kg-gain128\"\ngain = 64", line: 6,
                says: ["gain = 64 does not fit profile \"hx711-1kg-gain128\"", "hx711-1kg-gain64"]),
            BadProfile(
                testDescription: "a profile that is not a string", table: "kind = \"simulated-fsr\"\nprofile = 3",
                line: 5,
                says: ["expected a string"]),
            BadProfile(
                testDescription: "a capacity too small for the profile's division",
                table: "kind = \"simulated-fsr\"\nprofile = \"fsr402-10k-3v3\"\ncapacity_grams = 5", line: 6,
                says: ["gives 5.0 divisions", "set in this [[sensor]]", "from profile \"fsr402-10k-3v3\""]),
            BadProfile(
                testDescription: "an averaging time out of range", table: "kind = \"simulated-fsr\"\naveraging_ms = 0",
                line: 5, says: ["averaging_ms = 0.0 is out of range"])
        ])
    func badProfile(_ bad: BadProfile) throws {
        let text = "# sensors\n[[sensor]]\nname = \"s\"\n" + bad.table
        let error = try #require(throws: ConfigurationError.self, "accepted a profile it cannot use") {
            try PlumConfiguration.parse(text, file: "/etc/plumscale/plumscale.toml")
        }
        #expect(error.file == "/etc/plumscale/plumscale.toml")
        #expect(error.line == bad.line, "the error points at line \(error.line ?? 0): \(error)")
        for words in bad.says {
            #expect(error.description.contains(words), "\"\(words)\" missing from: \(error)")
        }
    }

    /// The numbers of `Calibration/profiles/NAME.json`, read without the engine's decoder.
    static func profileFile(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(repositoryRoot)/Calibration/profiles/\(name).json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name).json is no object")
    }

    @Test(
        "each profile that has a file in Calibration/profiles says what the file says, its average as a time",
        arguments: HardwareProfile.builtIn.filter { !$0.name.hasPrefix("iio-") }.map(\.name))
    func matchesShippedFile(_ name: String) throws {
        let profile = try #require(HardwareProfile.named(name))
        let file = try Self.profileFile(name)
        let number = { (key: String) in (file[key] as? NSNumber)?.doubleValue }
        #expect(profile.scale.divisionGrams == number("division"), "division differs from \(name).json")
        #expect(profile.scale.stabilityBandDivisions == number("stabilityBand"))
        #expect(profile.scale.stepThresholdDivisions == number("stepThreshold"))
        #expect(
            (profile.scale.zeroTracking ?? true) == (file["zeroTracking"] as? Bool ?? true),
            "zero-tracking differs from \(name).json")
        #expect(profile.gain.map(Double.init) == number("gain"))
        let samples = try #require(number("averagingSamples"))
        let rate = try #require(number("samplesPerSecond"))
        let milliseconds = try #require(profile.scale.averagingMilliseconds)
        #expect(
            abs(milliseconds - samples / rate * 1000) < 0.5,
            "\(samples) samples at \(rate) SPS is not \(milliseconds) ms")
    }

    @Test("every file in Calibration/profiles can be named in a [[sensor]] table")
    func everyFileIsAProfile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/Calibration/profiles")
        for file in files where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            #expect(HardwareProfile.named(name) != nil, "Calibration/profiles/\(file) has no profile of that name")
        }
    }

    @Test("the four-FSR example uses the FSR profile and none of its sensors zero-tracks")
    func fsrExampleDoesNotTrack() throws {
        let path = "\(repositoryRoot)/Calibration/examples/ads1115-four-fsr.toml"
        let configuration = try PlumConfiguration.load(path: path)
        for sensor in configuration.sensors {
            #expect(sensor.profile?.name == "fsr402-10k-3v3", "\(sensor.name) does not use the FSR profile")
            #expect(
                configuration.scaleSettings(for: sensor).zeroTracking == false,
                "\(sensor.name) would track FSR creep away as zero drift")
        }
    }
}

/// A key added to the scale settings but not to their layering would be read and then lost.
@Suite("Every [scale] key is read and carried up the layers")
struct ScaleKeysLayerTests {
    @Test("a [scale] naming every key leaves none unset, and over an empty layer it comes through whole")
    func everyKeyLayers() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            capacity_grams = 500
            division_grams = 0.5
            zero_tracking = false
            initial_zero = false
            restore_tare = false
            recognize_containers = true
            averaging_ms = 100
            stability_window_ms = 300
            stability_band_divisions = 1
            step_threshold_divisions = 4
            flow_window_ms = 1000
            warm_up_s = 5
            max_divisions = 10000
            stability_slope_divisions = 0.5
            display_hysteresis_divisions = 0.25
            min_weight_divisions = 20
            zero_tracking_rate_divisions = 0.5
            zero_tracking_band_divisions = 0.5
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            """, file: "all-keys.toml")
        let scale = configuration.scale
        let unset = Mirror(reflecting: scale).children.filter { child in
            if case Optional<Any>.none = child.value as Any? { return false }
            return "\(child.value)" == "nil"
        }.compactMap(\.label)
        #expect(unset.isEmpty, "read but left unset: \(unset)")
        #expect(ScaleSettings().overridden(by: scale) == scale, "a key the layering does not carry up")
        #expect(configuration.scaleSettings(for: configuration.sensors[0]) == scale)
    }
}
