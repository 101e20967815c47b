import PlumDaemonConfig
import PlumSettings
import Testing

@Suite("Item settings and [[class]] bands: read with their defaults, every mistake refused with line, key and a fix")
struct ItemSettingsTests {
    static let sensor = """
        [[sensor]]
        name = "crate"
        kind = "simulated-hx711"

        """

    @Test("a sensor without item keys weighs one at a time with a 10 d step; a file without classes has none")
    func defaults() throws {
        let config = try PlumConfiguration.parse(Self.sensor, file: "t.toml")
        #expect(config.sensors[0].items == ItemSettings(mode: .oneAtATime, minimumStepDivisions: 10))
        #expect(config.classes.isEmpty, "no [[class]], no bands: \(config.classes)")
    }

    @Test("item_mode and min_step_divisions are read per sensor")
    func perSensor() throws {
        let config = try PlumConfiguration.parse(
            Self.sensor + """
                item_mode = "accumulate"
                min_step_divisions = 50
                [[sensor]]
                name = "tray"
                kind = "simulated-hx711"
                item_mode = "one-at-a-time"
                min_step_divisions = 2
                """, file: "t.toml")
        #expect(
            config.sensors.map(\.items) == [
                ItemSettings(mode: .accumulate, minimumStepDivisions: 50),
                ItemSettings(mode: .oneAtATime, minimumStepDivisions: 2)
            ])
    }

    @Test("[[class]] bands are read in order with their lines")
    func classes() throws {
        let config = try PlumConfiguration.parse(
            Self.sensor + """
                [[class]]
                name = "small"
                min_grams = 0
                [[class]]
                name = "medium"
                min_grams = 35
                [[class]]
                name = "large"
                min_grams = 60.5
                """, file: "t.toml")
        #expect(
            config.classes == [
                WeightClassSettings(name: "small", minimumGrams: 0, line: 4),
                WeightClassSettings(name: "medium", minimumGrams: 35, line: 7),
                WeightClassSettings(name: "large", minimumGrams: 60.5, line: 10)
            ])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var what: String
        var text: String
        var line: Int
        var key: String
        var mentions: [String]
        var testDescription: String { what }
    }

    @Test(
        "a bad item key or [[class]] is refused with its file, line, key, the value and what is valid",
        arguments: [
            Bad(
                what: "an unknown item_mode", text: "item_mode = \"pile\"\n", line: 4,
                key: "sensor \"crate\".item_mode", mentions: ["item_mode = pile", "one-at-a-time or accumulate"]),
            Bad(
                what: "a step of 1 d", text: "min_step_divisions = 1\n", line: 4,
                key: "sensor \"crate\".min_step_divisions",
                mentions: ["min_step_divisions = 1", "2 to 100000 divisions"]),
            Bad(
                what: "a step in grams", text: "min_step_divisions = 1.5\n", line: 4,
                key: "sensor \"crate\".min_step_divisions", mentions: ["expected"]),
            Bad(
                what: "a class without min_grams", text: "[[class]]\nname = \"large\"\n", line: 4,
                key: "class \"large\"", mentions: ["missing key min_grams", "min_grams = 60"]),
            Bad(
                what: "a class without a name", text: "[[class]]\nmin_grams = 3\n", line: 4,
                key: "class[0]", mentions: ["missing key name", "name = \"large\""]),
            Bad(
                what: "a negative min_grams", text: "[[class]]\nname = \"tiny\"\nmin_grams = -1\n", line: 6,
                key: "class \"tiny\".min_grams", mentions: ["min_grams = -1.0", "0 or more grams"]),
            Bad(
                what: "bands out of order",
                text: "[[class]]\nname = \"large\"\nmin_grams = 60\n[[class]]\nname = \"medium\"\nmin_grams = 35\n",
                line: 9, key: "class \"medium\".min_grams",
                mentions: ["min_grams = 35.0 does not start above class \"large\"", "lightest first"]),
            Bad(
                what: "two bands at the same weight",
                text: "[[class]]\nname = \"a\"\nmin_grams = 10\n[[class]]\nname = \"b\"\nmin_grams = 10\n",
                line: 9, key: "class \"b\".min_grams", mentions: ["does not start above class \"a\""]),
            Bad(
                what: "a name used twice",
                text: "[[class]]\nname = \"a\"\nmin_grams = 10\n[[class]]\nname = \"a\"\nmin_grams = 20\n",
                line: 7, key: "class \"a\"", mentions: ["already used by the class on line 4", "its own name"]),
            Bad(
                what: "a typo in a class key", text: "[[class]]\nname = \"a\"\nmin_gram = 10\n", line: 6,
                key: "class \"a\".min_gram", mentions: ["unknown key min_gram", "min_grams"])
        ])
    func refused(_ bad: Bad) {
        #expect {
            try PlumConfiguration.parse(Self.sensor + bad.text, file: "/etc/plumscale/plumscale.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let text = error.description
            return error.file == "/etc/plumscale/plumscale.toml" && error.line == bad.line && error.key == bad.key
                && bad.mentions.allSatisfy { text.contains($0) }
        }
    }
}
