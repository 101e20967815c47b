import PlumDaemonConfig
import PlumSettings
import Testing

@Suite("[display] configuration")
struct DisplaySettingsTests {
    @Test("the keys are read; each panel kind gets its usual address and size")
    func keys() throws {
        let oled = try #require(
            try DisplaySettings.parse(
                """
                [display]
                kind = "ssd1306"
                bus = 3
                address = 0x3D
                size = "128x32"
                contrast = 64
                rotate = 180
                sensors = ["right", "left"]
                alternate_seconds = 6
                """, file: "p.toml"))
        #expect(oled.kind == .ssd1306 && oled.bus == 3 && oled.effectiveAddress == 0x3D)
        #expect(oled.effectiveSize == DisplaySettings.Size(width: 128, height: 32) && oled.contrast == 64)
        #expect(oled.rotated180 && oled.sensors == ["right", "left"] && oled.alternateSeconds == 6)
        let lcd = try #require(try DisplaySettings.parse("[display]\nkind = \"hd44780\"\n", file: "p.toml"))
        #expect(lcd.effectiveAddress == 0x27 && lcd.effectiveSize.description == "16x2", "a PCF8574 backpack's")
        let bare = try #require(try DisplaySettings.parse("[display]\nkind = \"ssd1306\"\n", file: "p.toml"))
        #expect(bare.effectiveAddress == 0x3C && bare.effectiveSize.description == "128x64" && bare.bus == 1)
        #expect(try DisplaySettings.parse("[scale]\ncapacity_grams = 385\n", file: "p.toml") == nil, "no table")
    }

    struct BadCase: Sendable, CustomStringConvertible {
        var text: String
        var expected: String
        var description: String { expected }
    }

    @Test(
        "a bad key or value names the file, the line and what to write",
        arguments: [
            BadCase(
                text: "[display]\nbus = 1\n",
                expected: "site.toml:1: display.kind: [display] needs kind = \"ssd1306\""),
            BadCase(
                text: "[display]\nkind = \"st7735\"\n",
                expected: "site.toml:2: display.kind: kind = st7735 is not allowed; use ssd1306, hd44780"),
            BadCase(
                text: "[display]\nkind = \"hd44780\"\nsize = \"128x64\"\n",
                expected:
                    "site.toml:3: display.size: size = \"128x64\" is not a hd44780 panel; use \"16x2\", \"20x4\", \"16x4\", \"20x2\" or \"8x2\""
            ),
            BadCase(
                text: "[display]\nkind = \"ssd1306\"\naddress = 0x78\n",
                expected: "site.toml:3: display.address: address = 120 is outside the 7-bit range 0x03…0x77"),
            BadCase(
                text: "[display]\nkind = \"ssd1306\"\nframe_file = \"/run/x.pbm\"\n",
                expected: "site.toml:3: display.frame_file: frame_file is for the simulated panels"),
            BadCase(
                text: "[display]\nkind = \"framebuffer\"\nsize = \"128x64\"\n",
                expected: "site.toml:3: display.size: a framebuffer's size comes from the kernel"),
            BadCase(
                text: "[display]\nkind = \"ssd1306\"\nrotate = 90\n",
                expected: "site.toml:3: display.rotate: rotate = 90 is not allowed; use 0 or 180"),
            BadCase(
                text: "[display]\nkind = \"hd44780\"\nrotate = 180\n",
                expected: "site.toml:3: display.rotate: a character LCD cannot turn its letters over"),
            BadCase(
                text: "[display]\nkind = \"ssd1306\"\ncontrast = 300\n",
                expected: "site.toml:3: display.contrast: contrast = 300 is out of range; use 0 to 255"),
            BadCase(
                text: "[display]\nkind = \"ssd1306\"\nadress = 0x3C\n",
                expected: "site.toml:3: display.adress: unknown key adress; allowed here: ")
        ])
    func badKeys(_ bad: BadCase) {
        #expect {
            try DisplaySettings.parse(bad.text, file: "site.toml")
        } throws: { error in
            "\(error)".hasPrefix(bad.expected)
        }
    }

    @Test("plumscaled's parser accepts a [display] table and refuses a typo in it")
    func daemonAcceptsDisplay() throws {
        let sensor = "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n"
        let config = try PlumConfiguration.parse(sensor + "[display]\nkind = \"ssd1306\"\n", file: "p.toml")
        #expect(config.sensors.map(\.name) == ["pan"])
        #expect(throws: ConfigurationError.self, "a typo under [display] fails the daemon's check too") {
            try PlumConfiguration.parse(sensor + "[display]\nkind = \"ssd1306\"\nsise = 1\n", file: "p.toml")
        }
    }
}
