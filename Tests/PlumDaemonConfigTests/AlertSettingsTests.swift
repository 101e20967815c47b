import PlumDaemonConfig
import PlumSettings
import Testing

@Suite("[[alert]] rules: read with their defaults, and every mistake refused with file, line, key and a fix")
struct AlertSettingsTests {
    static let sensors = """
        [cue]
        chip = "gpiochip0"
        line = "GPIO18"
        [[sensor]]
        name = "bowl"
        kind = "simulated-hx711"
        [[sensor]]
        name = "keg"
        kind = "simulated-hx711"

        """

    @Test("alerts are read in order, below or above, with hysteresis, hold and cue")
    func reads() throws {
        let config = try PlumConfiguration.parse(
            Self.sensors + """
                [[alert]]
                name = "fruit-low"
                sensor = "bowl"
                below = 200
                hysteresis = 50
                hold = 30
                cue = true
                [[alert]]
                name = "keg-full"
                sensor = "keg"
                above = 20000.5
                """, file: "t.toml")
        #expect(
            config.alerts == [
                AlertSettings(
                    name: "fruit-low", sensor: "bowl", direction: .below, grams: 200, hysteresisGrams: 50,
                    holdSeconds: 30,
                    cue: true, line: 10),
                AlertSettings(name: "keg-full", sensor: "keg", direction: .above, grams: 20_000.5, line: 17)
            ], "two alerts with their lines; the second with hysteresis 0, hold 0 and no cue: \(config.alerts)")
    }

    @Test("a file without alerts has none")
    func none() throws {
        #expect(try PlumConfiguration.parse(Self.sensors, file: "t.toml").alerts.isEmpty, "no [[alert]], no alerts")
    }

    struct BadAlert: Sendable, CustomTestStringConvertible {
        var what: String
        var text: String
        var line: Int
        var key: String
        var mentions: [String]
        var testDescription: String { what }
    }

    @Test(
        "a bad [[alert]] is refused with its file, line, key and what to do",
        arguments: [
            BadAlert(
                what: "an unknown sensor",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowel"
                    below = 100
                    """, line: 12, key: "alert \"low\".sensor",
                mentions: ["\"bowel\" is not a configured sensor", "\"bowl\""]),
            BadAlert(
                what: "both below and above",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = 100
                    above = 300
                    """, line: 14, key: "alert \"low\".above", mentions: ["either below or above", "second [[alert]]"]),
            BadAlert(
                what: "neither below nor above",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    """, line: 10, key: "alert \"low\"", mentions: ["missing key below or above", "below = 200"]),
            BadAlert(
                what: "a negative hysteresis",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = 100
                    hysteresis = -5
                    """, line: 14, key: "alert \"low\".hysteresis", mentions: ["hysteresis = -5", "0 or more grams"]),
            BadAlert(
                what: "a negative hold",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = 100
                    hold = -1
                    """, line: 14, key: "alert \"low\".hold", mentions: ["hold = -1", "0 to 86400 seconds"]),
            BadAlert(
                what: "a duplicate name",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = 100
                    [[alert]]
                    name = "low"
                    sensor = "keg"
                    below = 5000
                    """, line: 14, key: "alert \"low\"",
                mentions: ["already used by the alert on line 10", "its own name"]),
            BadAlert(
                what: "a typo in a key",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = 100
                    hysteresys = 5
                    """, line: 14, key: "alert \"low\".hysteresys", mentions: ["unknown key hysteresys", "hysteresis"]),
            BadAlert(
                what: "a threshold that is not a number",
                text: """
                    [[alert]]
                    name = "low"
                    sensor = "bowl"
                    below = "200 g"
                    """, line: 13, key: "alert \"low\".below", mentions: ["expected a number"])
        ])
    func refused(_ bad: BadAlert) {
        #expect {
            try PlumConfiguration.parse(Self.sensors + bad.text, file: "/etc/plumscale/plumscale.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let text = error.description
            return error.file == "/etc/plumscale/plumscale.toml" && error.line == bad.line && error.key == bad.key
                && bad.mentions.allSatisfy { text.contains($0) }
        }
    }

    @Test("cue = true without a [cue] output says to add one")
    func cueNeedsOutput() {
        #expect {
            try PlumConfiguration.parse(
                """
                [[sensor]]
                name = "bowl"
                kind = "simulated-hx711"
                [[alert]]
                name = "low"
                sensor = "bowl"
                below = 100
                cue = true
                """, file: "t.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == 8 && error.key == "alert \"low\".cue" && error.message.contains("add a [cue] table")
        }
    }
}
