import PlumDrivers
import Testing

@testable import PlumDaemonConfig
@testable import PlumSettings

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/PlumDaemonConfigTests/PlumConfigurationTests.swift
    return parts.joined(separator: "/")
}()

@Suite("Configuration file")
struct PlumConfigurationTests {
    @Test(
        "every shipped example parses and names its sensors",
        arguments: [
            ("hx711-one-pan.toml", ["pan"]),
            ("hx711-two-pans.toml", ["left", "right"]),
            ("ads1115-four-fsr.toml", ["fsr1", "fsr2", "fsr3", "fsr4"]),
            ("iio-kernel-drivers.toml", ["kernel-fsr", "kernel-pan"]),
            ("simulation.toml", ["left", "right", "fsr"])
        ])
    func shippedExamplesParse(file: String, names: [String]) throws {
        let config = try PlumConfiguration.load(path: "\(repositoryRoot)/Calibration/examples/\(file)")
        #expect(config.sensors.map(\.name) == names)
    }

    @Test("an HX711 table gives typed wiring with the datasheet defaults")
    func hx711Wiring() throws {
        let config = try PlumConfiguration.parse(
            """
            [[sensor]]
            name = "pan"
            kind = "hx711"
            chip = "pinctrl-rp1"
            dout = 5
            sck = "GPIO6"
            """, file: "test.toml")
        guard case .hx711(let wiring) = try config.sensor(named: "pan").wiring else {
            Issue.record("expected hx711 wiring")
            return
        }
        #expect(wiring.chip == "pinctrl-rp1")
        #expect(wiring.dout == "5")
        #expect(wiring.sck == "GPIO6")
        #expect(wiring.driver == HX711Configuration(gain: .channelA128, rate: .sps10))
        #expect(wiring.driver.clockHighLimit == .microseconds(50))
        #expect(wiring.driver.verifyBits)
        #expect(config.scale == ScaleSettings(), "a file without [scale] says nothing of it")
        #expect(config.scale.capacity == 385 && config.scale.division == 0.1 && config.scale.tracksZero)
    }

    @Test("an ADS1115 table with a divider and alert line is read whole")
    func ads1115Wiring() throws {
        let config = try PlumConfiguration.parse(
            """
            [[sensor]]
            name = "fsr"
            kind = "ads1115"
            bus = "i2c-1"
            address = 0x49
            channel = "ain2-ain3"
            pga_volts = 2.048
            data_rate = 860
            mode = "continuous"
            alert_chip = "gpiochip0"
            alert_line = "GPIO17"
            divider_ohms = 4700
            supply_volts = 5
            fsr_side = "ground"
            """, file: "test.toml")
        guard case .ads1115(let wiring) = config.sensors[0].wiring else {
            Issue.record("expected ads1115 wiring")
            return
        }
        #expect(wiring.bus == "i2c-1")
        #expect(wiring.address == 0x49)
        #expect(
            wiring.config == ADS1115Config(mux: .ain2MinusAin3, gain: .volts2_048, mode: .continuous, dataRate: .sps860)
        )
        #expect(wiring.alert == .init(chip: "gpiochip0", line: "GPIO17"))
        #expect(wiring.divider == (try FSRDivider(supplyVolts: 5, fixedOhms: 4700, placement: .fsrToGround)))
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var what: String
        var text: String
        var line: Int?
        var key: String
        var mentions: [String]
        var testDescription: String { what }
    }

    @Test(
        "a bad file is refused with its line, its key and what is allowed",
        arguments: [
            BadFile(
                what: "gain not offered by the chip",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx711"
                    chip = "gpiochip0"
                    dout = "GPIO5"
                    sck = "GPIO6"
                    gain = 100
                    """, line: 7, key: "sensor \"pan\".gain", mentions: ["gain = 100", "128", "64", "32"]),
            BadFile(
                what: "a typo in a key",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx711"
                    chip = "gpiochip0"
                    dout = "GPIO5"
                    sck = "GPIO6"
                    gian = 128
                    """, line: 7, key: "sensor \"pan\".gian", mentions: ["unknown key gian", "gain"]),
            BadFile(
                what: "a ready timeout shorter than the chip can meet",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx711"
                    chip = "gpiochip0"
                    dout = "GPIO5"
                    sck = "GPIO6"
                    ready_timeout_ms = 50
                    """, line: 7, key: "sensor \"pan\".ready_timeout_ms", mentions: ["50 ms", "10 SPS"]),
            BadFile(
                what: "missing DOUT line",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx711"
                    chip = "gpiochip0"
                    sck = "GPIO6"
                    """, line: 1, key: "sensor \"pan\"", mentions: ["missing key dout", "GPIO5"]),
            BadFile(
                what: "the same line for DOUT and SCK",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx711"
                    chip = "gpiochip0"
                    dout = 5
                    sck = 5
                    """, line: 6, key: "sensor \"pan\".sck", mentions: ["two different lines"]),
            BadFile(
                what: "unknown kind",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "hx712"
                    """, line: 3, key: "sensor \"pan\".kind",
                mentions: ["hx712", "hx711", "ads1115", "iio", "simulated-hx711", "replay"]),
            BadFile(
                what: "a string where a number belongs",
                text: """
                    [scale]
                    capacity_grams = "385"
                    [[sensor]]
                    name = "s"
                    kind = "simulated-hx711"
                    """, line: 2, key: "scale.capacity_grams", mentions: ["expected a number", "\"385\""]),
            BadFile(
                what: "a division that is not 1, 2 or 5 x 10^k",
                text: """
                    [scale]
                    division_grams = 0.3
                    [[sensor]]
                    name = "s"
                    kind = "simulated-hx711"
                    """, line: 2, key: "scale.division_grams", mentions: ["0.3", "1, 2 or 5"]),
            BadFile(
                what: "restore_tare that is not true or false",
                text: """
                    [scale]
                    capacity_grams = 385
                    restore_tare = "yes"
                    [[sensor]]
                    name = "s"
                    kind = "simulated-hx711"
                    """, line: 3, key: "scale.restore_tare", mentions: ["expected true or false", "\"yes\""]),
            BadFile(
                what: "a misspelt restore_tare",
                text: """
                    [scale]
                    restore_tares = false
                    [[sensor]]
                    name = "s"
                    kind = "simulated-hx711"
                    """, line: 2, key: "scale.restore_tares", mentions: ["unknown key restore_tares", "restore_tare"]),
            BadFile(
                what: "an address no ADS1115 can have",
                text: """
                    [[sensor]]
                    name = "fsr"
                    kind = "ads1115"
                    bus = 1
                    address = 0x50
                    """, line: 5, key: "sensor \"fsr\".address", mentions: ["0x50", "0x48", "0x4b"]),
            BadFile(
                what: "a PGA range the chip does not have",
                text: """
                    [[sensor]]
                    name = "fsr"
                    kind = "ads1115"
                    bus = 1
                    pga_volts = 5
                    """, line: 5, key: "sensor \"fsr\".pga_volts", mentions: ["6.144", "0.256"]),
            BadFile(
                what: "continuous mode on a chip two sensors share",
                text: """
                    [[sensor]]
                    name = "a"
                    kind = "ads1115"
                    bus = 1
                    [[sensor]]
                    name = "b"
                    kind = "ads1115"
                    bus = 1
                    channel = "AIN1"
                    mode = "continuous"
                    """, line: 5, key: "sensor \"b\".mode", mentions: ["\"a\", \"b\" share it", "single-shot"]),
            BadFile(
                what: "an alert line without its chip",
                text: """
                    [[sensor]]
                    name = "fsr"
                    kind = "ads1115"
                    bus = 1
                    alert_line = 17
                    """, line: 5, key: "sensor \"fsr\".alert_line", mentions: ["alert_chip"]),
            BadFile(
                what: "two sensors with one name",
                text: """
                    [[sensor]]
                    name = "pan"
                    kind = "simulated-hx711"

                    [[sensor]]
                    name = "pan"
                    kind = "simulated-hx711"
                    """, line: 5, key: "sensor \"pan\"", mentions: ["already used", "line 1"]),
            BadFile(
                what: "no sensors at all",
                text: """
                    [scale]
                    capacity_grams = 385
                    """, line: nil, key: "", mentions: ["no sensors", "[[sensor]]"]),
            BadFile(
                what: "a name with a space",
                text: """
                    [[sensor]]
                    name = "left pan"
                    kind = "simulated-hx711"
                    """, line: 2, key: "sensor[0].name", mentions: ["letters, digits"]),
            BadFile(
                what: "broken TOML",
                text: """
                    [[sensor]]
                    name = "pan
                    """, line: 2, key: "", mentions: ["not valid TOML"]),
            BadFile(
                what: "an unknown top-level table",
                text: """
                    [scales]
                    capacity_grams = 385
                    [[sensor]]
                    name = "s"
                    kind = "simulated-hx711"
                    """, line: 1, key: "scales", mentions: ["unknown key scales"])
        ])
    func badFileIsRefused(_ bad: BadFile) {
        #expect {
            try PlumConfiguration.parse(bad.text, file: "/etc/plumscale/plumscale.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let text = error.description
            return error.file == "/etc/plumscale/plumscale.toml" && error.line == bad.line && error.key == bad.key
                && bad.mentions.allSatisfy { text.contains($0) }
                && text.hasPrefix("/etc/plumscale/plumscale.toml")
        }
    }

    @Test("a missing file says where to find an example")
    func missingFile() {
        #expect {
            try PlumConfiguration.load(path: "/nonexistent/plumscale.toml")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("/nonexistent/plumscale.toml") && text.contains("No such file")
                && text.contains("Calibration/examples")
        }
    }

    @Test("an unknown sensor name lists the sensors that exist")
    func unknownSensorListsNames() throws {
        let config = try PlumConfiguration.load(path: "\(repositoryRoot)/Calibration/examples/hx711-two-pans.toml")
        #expect {
            try config.sensor(named: "middle")
        } throws: { error in
            String(describing: error).contains(
                "no sensor named \"middle\"; sensors in this file: \"left\" or \"right\"")
        }
    }

    @Test(
        "divisions of 1, 2 and 5 times a power of ten are accepted, others refused",
        arguments: [
            (0.1, true), (0.2, true), (0.5, true), (1, true), (2, true), (5, true), (10, true), (0.01, true),
            (0.3, false), (0.25, false), (3, false), (0, false), (-1, false)
        ])
    func divisionRule(value: Double, valid: Bool) {
        #expect(ScaleSettings.isValidDivision(value) == valid)
    }
}
