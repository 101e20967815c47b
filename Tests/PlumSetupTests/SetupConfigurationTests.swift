import Foundation
import PlumDaemonConfig
import PlumSettings
import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumSetup

/// The file `plumscale setup` writes: what it renders loads with the services' own loaders, it
/// keeps what setup does not own, and it is written atomically.
@Suite("setup: the configuration it renders and how it writes it")
struct SetupConfigurationTests {
    /// Sensors of the three hardware kinds, as the answers give them.
    static func plan() throws -> SetupConfiguration {
        let answers = try SetupAnswers.parse(
            """
            [[sensor]]
            name = "pan"
            kind = "hx711"
            chip = "pinctrl-rp1"
            dout = "GPIO5"
            sck = "GPIO6"
            rate = 80
            ready_timeout_ms = 1000
            clock_high_limit_us = 10000
            realtime_priority = 10
            lock_memory = true

            [[sensor]]
            name = "fsr"
            kind = "ads1115"
            bus = 1
            address = 0x4A
            channel = 3

            [[sensor]]
            name = "kernel"
            kind = "iio"
            device = "iio:device2"
            channel = 1

            [groups]
            socket_group = "scale-readers"
            admin_group = "scale-admins"

            [cue]
            chip = "pinctrl-rp1"
            line = "GPIO18"

            [[button]]
            chip = "pinctrl-rp1"
            line = 27
            """, file: "answers.toml")
        var plan = SetupConfiguration()
        plan.sensors = answers.sensors
        plan.socketGroup = answers.socketGroup
        plan.adminGroup = answers.adminGroup
        plan.cue = answers.cue
        plan.buttons = answers.buttons
        plan.mqtt = .init(host: "broker.lan", port: 1884, username: "plum", scaleID: "kitchen")
        plan.webListen = "0.0.0.0:8080"
        plan.webAllowedHosts = ["scale", "scale.local"]
        return plan
    }

    @Test("hx711, ads1115 and iio sensors, groups, cue, button, [mqtt] and [web] load back as they were chosen")
    func roundTrip() throws {
        let text = try Self.plan().render()
        let configuration = try SetupConfiguration.validate(text, file: "setup.toml")
        #expect(configuration.sensors.map(\.name) == ["pan", "fsr", "kernel"])
        guard case .hx711(let hx711) = configuration.sensors[0].wiring else {
            Issue.record("pan is not an HX711: \(configuration.sensors[0].wiring)")
            return
        }
        #expect(hx711.chip == "pinctrl-rp1" && hx711.dout == "GPIO5" && hx711.sck == "GPIO6")
        #expect(hx711.driver.rate.rawValue == 80)
        #expect(hx711.driver.readyTimeout == .milliseconds(1000) && hx711.driver.clockHighLimit == .microseconds(10000))
        #expect(hx711.sampler == SamplerSettings(realtimePriority: 10, lockMemory: true))
        #expect(configuration.sensors[0].profile?.name == "hx711-1kg-gain128")
        guard case .ads1115(let ads) = configuration.sensors[1].wiring else {
            Issue.record("fsr is not an ADS1115: \(configuration.sensors[1].wiring)")
            return
        }
        #expect(ads.bus == "1" && ads.address == 0x4A && ads.config.mux.description == "AIN3")
        guard case .iio(let iio) = configuration.sensors[2].wiring else {
            Issue.record("kernel is not IIO: \(configuration.sensors[2].wiring)")
            return
        }
        #expect(iio.device == "iio:device2" && iio.channel == 1)
        #expect(configuration.daemon.socketGroup == "scale-readers")
        #expect(configuration.daemon.adminGroup == "scale-admins")
        #expect(
            configuration.cue?.line.description.contains("GPIO18") == true, "\(String(describing: configuration.cue))")
        #expect(configuration.buttons.count == 1)
        let mqtt = try MQTTBridgeConfiguration.parse(text, file: "setup.toml").mqtt
        #expect(mqtt.host == "broker.lan" && mqtt.port == 1884 && mqtt.username == "plum" && mqtt.scaleID == "kitchen")
        let web = try WebSettings.parse(text, file: "setup.toml")
        #expect(web.listen == WebListenAddress(host: "0.0.0.0", port: 8080))
        #expect(web.allowedHosts == ["scale", "scale.local"])
        for header in ["[daemon]", "[[sensor]]", "[cue]", "[[button]]", "[mqtt]", "[web]"] {
            let line = text.split(separator: "\n").firstIndex { $0 == header }
            let above = line.map { text.split(separator: "\n")[$0 - 1] } ?? ""
            #expect(
                above.hasPrefix("#") && above.contains("docs/configuration.md"), "\(header) has no comment: \(above)")
        }
    }

    @Test("sections setup does not own are kept, its own are replaced, and rendering again changes nothing")
    func keepsTheRest() throws {
        let existing = """
            # my scale
            [scale]
            capacity_grams = 500   # a bigger cell

            [daemon]
            socket = "/run/plum/x.sock"
            admin_group = "old-admins"

            [[sensor]]
            name = "old"
            kind = "simulated-hx711"

            # warn when the bowl is nearly empty
            [[alert]]
            name = "low"
            sensor = "pan"
            below = 50
            """
        var plan = try Self.plan()
        plan.mqtt = nil
        plan.webListen = nil
        let text = plan.render(keeping: existing)
        #expect(text.contains("[scale]\ncapacity_grams = 500   # a bigger cell"), "\(text)")
        #expect(text.contains("# warn when the bowl is nearly empty\n[[alert]]"), "\(text)")
        #expect(text.contains("socket = \"/run/plum/x.sock\""))
        #expect(!text.contains("old-admins") && !text.contains("name = \"old\""), "\(text)")
        #expect(plan.render(keeping: text) == text, "a second run must find the file as it would write it")
        let configuration = try SetupConfiguration.validate(text, file: "kept.toml")
        #expect(configuration.scale.capacityGrams == 500)
        #expect(configuration.daemon.socket == "/run/plum/x.sock")
        #expect(configuration.alerts.count == 1)
    }

    @Test("the diff shows the lines that go and the lines that come, and nothing for equal texts")
    func diff() {
        let diff = SetupFile.diff("a\nb\nc\n", "a\nB\nc\nd\n", oldName: "old", newName: "new")
        #expect(diff.hasPrefix("--- old\n+++ new\n@@ -1,"), "\(diff)")
        #expect(diff.contains("\n-b\n+B\n") && diff.contains("\n+d"), "\(diff)")
        #expect(SetupFile.diff("same\n", "same\n", oldName: "a", newName: "b") == "")
    }

    @Test("a write creates the file with its mode and replaces an old one", arguments: [0o644, 0o600] as [mode_t])
    func write(mode: mode_t) throws {
        let directory = try TemporaryDirectory(prefix: "plumsetupfile")
        let path = try directory.write("plumscale.toml", "old\n")
        try SetupFile(path: path).write("new\n", mode: mode)
        #expect(directory.read("plumscale.toml") == "new\n")
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == mode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["plumscale.toml"])
    }

    @Test(
        "a write that fails at any step before the rename leaves the old file and no temporary file",
        arguments: ["write", "fsync", "rename"])
    func failedWrite(step: String) throws {
        let directory = try TemporaryDirectory(prefix: "plumsetupfile")
        let path = try directory.write("plumscale.toml", "old\n")
        var file = SetupFile(path: path)
        // A failing create leaves a temporary file cut short, to be cleaned away.
        let failing: FailingFileSteps.Step = step == "write" ? .create : step == "fsync" ? .syncFile : .rename
        file.steps = FailingFileSteps(failing: failing, errno: .noSpace)
        let error = #expect(throws: SetupFile.WriteError.self) { try file.write("new\n", mode: 0o644) }
        #expect(directory.read("plumscale.toml") == "old\n", "the old file is intact")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["plumscale.toml"])
        let message = error.map { "\($0)" } ?? ""
        #expect(
            message.contains(path) && message.contains("ENOSPC") && message.contains("free some space"), "\(message)")
    }

    @Test("what setup is not given (groups, a buzzer, buttons, the scale id) is kept from the existing file")
    func keepsWhatItIsNotGiven() throws {
        let existing = """
            [daemon]
            socket_group = "readers"
            admin_group = "admins"

            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"

            [cue]
            chip = "gpiochip0"
            line = 18

            [mqtt]
            host = "old-broker"
            scale_id = "kitchen"
            """
        var plan = SetupConfiguration()
        plan.sensors = try SetupAnswers.parse(
            "[[sensor]]\nname = \"fsr\"\nkind = \"simulated-fsr\"\n", file: "a.toml"
        ).sensors
        plan.mqtt = .init(host: "localhost", port: 1883)
        let text = plan.render(keeping: existing)
        let configuration = try SetupConfiguration.validate(text, file: "kept.toml")
        #expect(configuration.sensors.map(\.name) == ["fsr"])
        #expect(configuration.daemon.socketGroup == "readers" && configuration.daemon.adminGroup == "admins")
        #expect(configuration.cue != nil, "\(text)")
        let mqtt = try MQTTBridgeConfiguration.parse(text, file: "kept.toml").mqtt
        #expect(mqtt.host == "localhost" && mqtt.scaleID == "kitchen", "the device keeps its id: \(text)")
    }
}
