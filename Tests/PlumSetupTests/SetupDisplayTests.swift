import Foundation
import PlumTestSupport
import Testing

@testable import PlumSetup

/// The display step of `plumscale setup`: the answers' `[display]`, what the probe fills in, the
/// `[display]` table written, and plumscale-display's unit enabled as the other services' are.
@Suite("setup: the display, from the probe or the answers to [display] and its unit")
struct SetupDisplayTests {
    typealias Probed = SetupWizard.ProbedDisplay

    /// What a probe saw: an SSD1306 at 0x3D and a PCF8574A backpack at 0x3F on i2c-1, a kernel
    /// driver at 0x3C on i2c-2, the board's HDMI framebuffer and a small SPI panel's.
    static let probed: [Probed] = [
        Probed(
            what: "SSD1306-class OLED (likely) at 0x3D on i2c-1",
            display: .init(kind: "ssd1306", bus: 1, address: 0x3D, size: "128x64")),
        Probed(
            what: "PCF8574 backpack (HD44780 LCD likely) at 0x3F on i2c-1",
            display: .init(kind: "hd44780", bus: 1, address: 0x3F, size: "16x2")),
        Probed(
            what: "a kernel driver's device at 0x3C on i2c-2",
            display: .init(kind: "ssd1306", bus: 2, address: 0x3C, size: "128x64"), standing: .kernelDriver),
        Probed(
            what: "/dev/fb0 [vc4drmfb] 1920x1080: the board's video output (HDMI), likely",
            display: .init(kind: "framebuffer", device: "/dev/fb0"), standing: .boardVideo),
        Probed(
            what: "/dev/fb1 [fb_ili9341] 320x240: a small SPI panel, likely",
            display: .init(kind: "framebuffer", device: "/dev/fb1"))
    ]

    static func display(_ text: String) throws -> SetupAnswers.Display {
        try #require(try SetupAnswers.parse("[display]\n" + text, file: "answers.toml").display)
    }

    @Test("the answers' [display] gives every key the configuration's [display] takes")
    func answers() throws {
        let display = try Self.display("kind = \"ssd1306\"\nbus = 3\naddress = 0x3D\nsize = \"128x32\"\nrotate = 180\n")
        #expect(
            display
                == SetupAnswers.Display(kind: "ssd1306", bus: 3, address: 0x3D, size: "128x32", rotate: 180))
        let off = try Self.display("enable = false\n")
        #expect(!off.enable && off.kind == nil, "a [display] that is off needs no kind")
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var says: [String]
        var testDescription: String { text.replacingOccurrences(of: "\n", with: "; ") }
    }

    @Test(
        "a [display] key the kind does not take, or a value it cannot have, is refused with its line",
        arguments: [
            Bad(text: "bus = 1\n", line: 1, says: ["missing key kind", "\"ssd1306\""]),
            Bad(text: "kind = \"oled\"\n", line: 2, says: ["kind", "ssd1306", "simulated-hd44780"]),
            Bad(text: "kind = \"framebuffer\"\naddress = 0x3C\n", line: 3, says: ["address", "I2C"]),
            Bad(text: "kind = \"ssd1306\"\ndevice = \"/dev/fb1\"\n", line: 3, says: ["device", "framebuffer"]),
            Bad(text: "kind = \"ssd1306\"\nsize = \"16x2\"\n", line: 3, says: ["size", "\"128x64\" or \"128x32\""]),
            Bad(text: "kind = \"framebuffer\"\nsize = \"128x64\"\n", line: 3, says: ["size", "kernel"]),
            Bad(text: "kind = \"hd44780\"\nframe_file = \"/tmp/f\"\n", line: 3, says: ["frame_file", "simulated"]),
            Bad(text: "kind = \"ssd1306\"\naddress = 0x80\n", line: 3, says: ["address", "0x03 to 0x77"]),
            Bad(text: "kind = \"ssd1306\"\nrotate = 90\n", line: 3, says: ["rotate", "0 or 180"]),
            Bad(text: "kind = \"hd44780\"\nrotate = 180\n", line: 3, says: ["rotate", "cannot turn its letters"]),
            Bad(text: "kind = \"ssd1306\"\ncontrast = 10\n", line: 3, says: ["contrast", "allowed here"])
        ])
    func refused(_ bad: Bad) {
        let error = #expect(throws: (any Error).self) {
            try SetupAnswers.parse("[display]\n" + bad.text, file: "a.toml")
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.hasPrefix("a.toml:\(bad.line):"), "\(message)")
        for part in bad.says { #expect(message.contains(part), "\(message) should say \(part)") }
    }

    struct Completion: Sendable, CustomTestStringConvertible {
        var answers: String
        var probed: Bool
        var display: SetupConfiguration.Display
        var testDescription: String {
            answers.replacingOccurrences(of: "\n", with: "; ") + (probed ? "" : ", nothing probed")
        }
    }

    @Test(
        "what the answers leave out comes from the probe's finding of that kind, else the kind's usual value",
        arguments: [
            Completion(
                answers: "kind = \"ssd1306\"\n", probed: true,
                display: .init(kind: "ssd1306", bus: 1, address: 0x3D, size: "128x64")),
            Completion(
                answers: "kind = \"hd44780\"\n", probed: true,
                display: .init(kind: "hd44780", bus: 1, address: 0x3F, size: "16x2")),
            Completion(
                answers: "kind = \"ssd1306\"\nbus = 2\n", probed: true,
                display: .init(kind: "ssd1306", bus: 2, address: 0x3C, size: "128x64")),
            Completion(
                answers: "kind = \"ssd1306\"\n", probed: false,
                display: .init(kind: "ssd1306", bus: 1, address: 0x3C, size: "128x64")),
            Completion(
                answers: "kind = \"hd44780\"\nsize = \"20x4\"\n", probed: false,
                display: .init(kind: "hd44780", bus: 1, address: 0x27, size: "20x4")),
            Completion(
                answers: "kind = \"framebuffer\"\n", probed: true,
                display: .init(kind: "framebuffer", device: "/dev/fb1")),
            Completion(
                answers: "kind = \"simulated-ssd1306\"\n", probed: false,
                display: .init(
                    kind: "simulated-ssd1306", size: "128x64", frameFile: "/run/plumscale-display/display.pbm"))
        ])
    func completion(_ example: Completion) throws {
        let answer = try Self.display(example.answers)
        let display = try SetupWizard.completeDisplay(answer, example.probed ? Self.probed : [])
        #expect(display == example.display)
    }

    @Test("a framebuffer with no device named, and none found, stops setup and says what to set")
    func framebufferWithoutDevice() throws {
        let answer = try Self.display("kind = \"framebuffer\"\n")
        let error = #expect(throws: SetupFailure.self) { try SetupWizard.completeDisplay(answer, []) }
        #expect(error?.message.contains("device = \"/dev/fb1\"") == true, "\(String(describing: error))")
    }

    @Test("the panels found are offered first, the board's HDMI last, and an address a kernel driver owns not at all")
    func candidates() {
        #expect(
            SetupWizard.displayCandidates(Self.probed).map(\.what) == [
                "SSD1306-class OLED (likely) at 0x3D on i2c-1",
                "PCF8574 backpack (HD44780 LCD likely) at 0x3F on i2c-1",
                "/dev/fb1 [fb_ili9341] 320x240: a small SPI panel, likely",
                "/dev/fb0 [vc4drmfb] 1920x1080: the board's video output (HDMI), likely"
            ])
    }

    @Test("a display the probe did not see is written all the same, with a note that says why it may not show")
    func notes() {
        let absent = SetupConfiguration.Display(kind: "hd44780", bus: 1, address: 0x27, size: "16x2")
        #expect(SetupWizard.displayNote(absent, Self.probed)?.hasPrefix("nothing answered at 0x27 on i2c-1") == true)
        let owned = SetupConfiguration.Display(kind: "ssd1306", bus: 2, address: 0x3C, size: "128x64")
        #expect(SetupWizard.displayNote(owned, Self.probed)?.hasPrefix("a kernel driver owns 0x3C on i2c-2") == true)
        #expect(SetupWizard.displayNote(Self.probed[0].display, Self.probed) == nil)
        let missing = SetupConfiguration.Display(kind: "framebuffer", device: "/dev/fb2")
        #expect(SetupWizard.displayNote(missing, Self.probed)?.contains("no framebuffer /dev/fb2") == true)
    }

    @Test("[display] is written with the keys plumscale-display reads, the address in hex, and reads back as written")
    func rendered() throws {
        var plan = try SetupConfigurationTests.plan()
        let display = SetupConfiguration.Display(kind: "ssd1306", bus: 1, address: 0x3C, size: "128x64")
        plan.display = display
        let text = plan.render()
        #expect(
            text.contains(
                """
                # [display]: the scale's own display, drawn by plumscale-display (docs/display.md).
                [display]
                kind = "ssd1306"
                bus = 1
                address = 0x3C
                size = "128x64"
                rotate = 0

                """), "\(text)")
        // The block read back by a TOML parser: the answers' [display] takes the same keys.
        let block = try #require(SetupConfiguration.blocks(text).first { $0.header == "[display]" })
        let read = try SetupAnswers.parse(block.lines.joined(separator: "\n"), file: "rendered.toml").display
        #expect(read == SetupAnswers.Display(kind: "ssd1306", bus: 1, address: 0x3C, size: "128x64", rotate: 0))
    }

    @Test("a second run keeps [display]'s other keys, drops those of the old kind, and renders the same again")
    func keepsTheRest() {
        let existing = """
            [display]
            kind = "ssd1306"
            bus = 1
            address = 0x3C
            contrast = 100
            sensors = ["left"]
            """
        var plan = SetupConfiguration()
        plan.display = .init(kind: "framebuffer", device: "/dev/fb1", rotate: 180)
        let text = plan.render(keeping: existing)
        let block = SetupConfiguration.blocks(text).first { $0.header == "[display]" }?.lines ?? []
        #expect(
            block.filter { !$0.hasPrefix("#") } == [
                "[display]", "kind = \"framebuffer\"", "device = \"/dev/fb1\"", "rotate = 180", "contrast = 100",
                "sensors = [\"left\"]"
            ], "\(text)")
        #expect(plan.render(keeping: text) == text)
    }

    /// A wizard on a fake tree with a small SPI panel's framebuffer, whose systemctl is a script
    /// that logs its arguments and knows every unit.
    static func wizard(
        answers: String, displayInstalled: Bool, in directory: TemporaryDirectory
    ) throws -> (SetupWizard, log: String) {
        _ = try directory.makeDirectory("tree/sys/class/graphics/fb1")
        _ = try directory.write("tree/sys/class/graphics/fb1/name", "fb_ili9341\n")
        _ = try directory.write("tree/sys/class/graphics/fb1/virtual_size", "320,240\n")
        _ = try directory.write("tree/sys/class/graphics/fb1/bits_per_pixel", "16\n")
        _ = try directory.makeDirectory("tree/dev")
        _ = try directory.write("tree/dev/fb1", "")
        let log = directory.file("systemctl.log")
        let systemctl = try directory.write("systemctl", "#!/bin/sh\necho \"$@\" >> '\(log)'\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: systemctl)
        let environment = [
            "PLUMSCALE_SYSTEMCTL": systemctl, "PLUMSCALE_MQTT_BINARY": "", "PLUMSCALE_WEB_BINARY": "",
            "PLUMSCALE_DISPLAY_BINARY": displayInstalled ? "/bin/true" : "", "PATH": "/usr/bin:/bin"
        ]
        let wizard = SetupWizard(
            configPath: directory.file("plumscale.toml"), credentialsDirectory: directory.file("credentials"),
            socket: nil, daemonWait: 1, probePins: nil, window: .milliseconds(500),
            roots: .init(under: directory.file("tree")),
            system: SetupSystem(noSystemd: false, environment: environment),
            answers: try SetupAnswers.parse(answers, file: "answers.toml"))
        return (wizard, log)
    }

    @Test("the answers' framebuffer gets the device the probe found, and plumscale-display.service is enabled")
    func unitEnabled() throws {
        let directory = try TemporaryDirectory(prefix: "plumsetupdisplay")
        let (wizard, log) = try Self.wizard(
            answers: "[display]\nkind = \"framebuffer\"\nrotate = 180\n", displayInstalled: true, in: directory)
        let report = wizard.probe()
        #expect(SetupWizard.summary(report).contains("display \(directory.file("tree/dev/fb1")) [fb_ili9341]"))
        var plan = SetupConfiguration()
        let services = try wizard.setUpServices(&plan, report: report)
        #expect(plan.display == .init(kind: "framebuffer", device: directory.file("tree/dev/fb1"), rotate: 180))
        #expect(services.units == ["plumscale-display.service"])
        try wizard.startServices(services)
        #expect(
            readFile(log).split(separator: "\n") == [
                "cat plumscale-display.service", "enable plumscale-display.service",
                "restart plumscale-display.service"
            ])
    }

    @Test("without plumscale-display installed, or without [display] in the answers, no display and no unit")
    func skipped() throws {
        for (answers, installed) in [("[display]\nkind = \"ssd1306\"\n", false), ("", true)] {
            let directory = try TemporaryDirectory(prefix: "plumsetupdisplay")
            let (wizard, log) = try Self.wizard(answers: answers, displayInstalled: installed, in: directory)
            var plan = SetupConfiguration()
            let services = try wizard.setUpServices(&plan, report: wizard.probe())
            #expect(plan.display == nil && services.units.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: log), "no systemctl call")
        }
    }
}
