import Foundation
import Testing

@testable import PlumSetup

/// `plumscale setup --answers FILE`: what a good file gives, and that each kind of mistake is
/// refused with the line, the key and what is allowed.
@Suite("setup --answers: parsing")
struct SetupAnswersTests {
    static let good = """
        overwrite = true

        [[sensor]]
        name = "pan"
        kind = "hx711"
        chip = "gpio-sim-bank0"
        dout = "GPIO5"
        sck = 6
        rate = 80

        [[sensor]]
        name = "fsr"
        kind = "ads1115"
        bus = 1
        address = 0x49
        channel = 2

        [[calibration]]
        sensor = "pan"
        points = [0, 100, 250.5]
        wait = 30

        [groups]
        socket_group = "plumscale"
        admin_group = "plumscale-admin"

        [mqtt]
        host = "broker.lan"
        port = 1884
        username = "plumscale"
        password_file = "/tmp/mqtt.txt"
        scale_id = "kitchen"

        [web]
        enable = false
        listen = "0.0.0.0:8080"
        password_file = "/tmp/web.txt"

        [cue]
        chip = "gpiochip0"
        line = 18

        [[button]]
        chip = "gpiochip0"
        line = "GPIO27"
        active_low = true
        """

    @Test("a good file gives every answer, with the issue's shorthands turned into the configuration's keys")
    func goodFile() throws {
        let answers = try SetupAnswers.parse(Self.good, file: "answers.toml")
        #expect(answers.overwrite)
        #expect(answers.sensors.map(\.name) == ["pan", "fsr"])
        let pan = answers.sensors[0]
        #expect(pan.kind == .hx711)
        #expect(pan.value("chip") == .string("gpio-sim-bank0"))
        #expect(pan.value("dout") == .string("GPIO5"))
        #expect(pan.value("sck") == .int(6))
        #expect(pan.value("rate") == .int(80))
        #expect(pan.value("profile") == .string("hx711-1kg-gain128"), "the README's cell when none is named")
        let fsr = answers.sensors[1]
        #expect(fsr.value("channel") == .string("AIN2"), "channel 2 is AIN2")
        #expect(fsr.value("address") == .int(0x49))
        #expect(fsr.value("profile") == .string("fsr402-10k-3v3"))
        #expect(answers.calibrations == [SetupAnswers.Calibration(sensor: "pan", points: [0, 100, 250.5], wait: 30)])
        #expect(answers.socketGroup == "plumscale")
        #expect(answers.adminGroup == "plumscale-admin")
        #expect(
            answers.mqtt
                == SetupAnswers.MQTT(
                    enable: true, host: "broker.lan", port: 1884, username: "plumscale",
                    passwordFile: "/tmp/mqtt.txt", scaleID: "kitchen"))
        #expect(answers.web == SetupAnswers.Web(enable: false, listen: "0.0.0.0:8080", passwordFile: "/tmp/web.txt"))
        #expect(answers.cue?.map(\.key) == ["chip", "line"])
        #expect(answers.buttons.count == 1)
        #expect(answers.buttons.first?.first { $0.key == "active_low" }?.value == .bool(true))
    }

    @Test("the example in Calibration/examples parses")
    func example() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Calibration/examples/setup-answers.toml").path
        let answers = try SetupAnswers.load(path: path)
        #expect(answers.sensors.map(\.name) == ["pan", "fsr"])
        #expect(answers.calibrations.map(\.points) == [[0, 100], [0, 200, 500]])
        #expect(answers.mqtt?.scaleID == "kitchen")
    }

    struct Bad: Sendable, CustomStringConvertible {
        var what: String
        var text: String
        /// The line the error must name.
        var line: Int
        /// Parts the message must hold: the key and what is allowed.
        var says: [String]
        var description: String { what }
    }

    static let bad: [Bad] = [
        Bad(
            what: "an unknown root key", text: "overwrite = true\nowerwrite = 1\n", line: 2,
            says: ["owerwrite", "allowed"]),
        Bad(what: "a wrong type", text: "overwrite = \"yes\"\n", line: 1, says: ["overwrite", "true or false"]),
        Bad(
            what: "an unknown sensor key", text: "[[sensor]]\nname = \"pan\"\nkind = \"hx711\"\ndt = \"GPIO5\"\n",
            line: 4, says: ["dt", "allowed here", "dout"]),
        Bad(
            what: "an unknown kind", text: "[[sensor]]\nname = \"pan\"\nkind = \"hx712\"\n", line: 3,
            says: ["kind", "hx711", "ads1115"]),
        Bad(
            what: "a channel out of range", text: "[[sensor]]\nname = \"f\"\nkind = \"ads1115\"\nchannel = 4\n",
            line: 4, says: ["channel", "0 to 3"]),
        Bad(
            what: "a rate of the wrong type", text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\nrate = \"fast\"\n",
            line: 4, says: ["rate", "whole number"]),
        Bad(
            what: "a sensor name used twice",
            text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\n[[sensor]]\nname = \"p\"\nkind = \"iio\"\n", line: 5,
            says: ["\"p\"", "twice"]),
        Bad(
            what: "a calibration of no such sensor",
            text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\n[[calibration]]\nsensor = \"q\"\npoints = [0, 1]\n",
            line: 5, says: ["\"q\"", "\"p\""]),
        Bad(
            what: "points that do not start at 0",
            text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\n[[calibration]]\nsensor = \"p\"\npoints = [100]\n",
            line: 6, says: ["points", "empty pan"]),
        Bad(
            what: "a point that is not a number",
            text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\n[[calibration]]\nsensor = \"p\"\npoints = [0, \"a\"]\n",
            line: 6, says: ["points", "item 2"]),
        Bad(
            what: "a driver flag of the wrong type",
            text: "[[sensor]]\nname = \"p\"\nkind = \"hx711\"\nlock_memory = 1\n", line: 4,
            says: ["lock_memory", "true or false"]),
        Bad(what: "a port out of range", text: "[mqtt]\nport = 70000\n", line: 2, says: ["port", "1 to 65535"]),
        Bad(
            what: "an unknown web key", text: "[web]\npassword = \"x\"\n", line: 2,
            says: ["password", "password_file"]),
        Bad(what: "groups as a value", text: "groups = 1\n", line: 1, says: ["groups", "table"]),
        Bad(what: "broken TOML", text: "[[sensor]\nname = 1\n", line: 1, says: ["not valid TOML"])
    ]

    @Test("each kind of bad input is refused with its line, its key and what is allowed", arguments: bad)
    func refused(_ bad: Bad) throws {
        let error = #expect(throws: (any Error).self) { try SetupAnswers.parse(bad.text, file: "a.toml") }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.hasPrefix("a.toml:\(bad.line):"), "\(message)")
        for part in bad.says { #expect(message.contains(part), "\(message) should say \(part)") }
    }
}
