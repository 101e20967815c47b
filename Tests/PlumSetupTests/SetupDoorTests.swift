import Foundation
import PlumSettings
import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumSetup

/// The door to root that `plumscale setup --serve` is: who may knock (the group), what a
/// request may name (chips, buses, no files), and how its files are written.
@Suite("setup: the web page's door to root stays narrow")
struct SetupDoorTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("the setup socket's group is plumscale-setup, and plumscale-web alone is in it")
    func group() throws {
        let socket = readFile(Self.repository + "/systemd/plumscale-setup.socket")
        #expect(socket.split(separator: "\n").contains("SocketGroup=plumscale-setup"), "\(socket)")
        let members = ["plumscale.sysusers", "plumscale-web.sysusers"].flatMap {
            readFile(Self.repository + "/systemd/" + $0).split(separator: "\n")
                .filter { $0.hasPrefix("m ") && $0.hasSuffix(" plumscale-setup") }
        }
        #expect(members == ["m plumscale-web plumscale-setup"])
        #expect(readFile(Self.repository + "/systemd/plumscale.sysusers").contains("\ng plumscale-setup -\n"))
        let web = readFile(Self.repository + "/systemd/plumscale-web.service")
        #expect(web.contains("\nSupplementaryGroups=plumscale plumscale-admin plumscale-setup\n"))
        let mqtt = readFile(Self.repository + "/systemd/plumscale-mqtt.service")
        #expect(!mqtt.contains("plumscale-setup"), "the bridge, which parses network input, is not let in")
    }

    struct Chip: Sendable, CustomTestStringConvertible {
        var chip: String
        var allowed: Bool
        var testDescription: String { "\(chip): \(allowed ? "allowed" : "refused")" }
    }

    @Test(
        "a request's chip is a chip's name, label or /dev/gpiochipN; any other path is refused before it is opened",
        arguments: [
            Chip(chip: "gpiochip0", allowed: true), Chip(chip: "pinctrl-rp1", allowed: true),
            Chip(chip: "pinctrl-bcm2711", allowed: true), Chip(chip: "/dev/gpiochip4", allowed: true),
            Chip(chip: "/etc/shadow", allowed: false), Chip(chip: "/dev/gpiochip0/../../etc/shadow", allowed: false),
            Chip(chip: "/dev/gpiochip", allowed: false), Chip(chip: "/dev/mem", allowed: false),
            Chip(chip: "..", allowed: false), Chip(chip: "../../etc/shadow", allowed: false),
            Chip(chip: "", allowed: false), Chip(chip: "chip\u{1B}[2J", allowed: false),
            Chip(chip: String(repeating: "a", count: 65), allowed: false)
        ])
    func chip(_ case: Chip) {
        let problem = SetupServer.chipProblem(`case`.chip)
        #expect((problem == nil) == `case`.allowed, "\(problem ?? "allowed")")
    }

    @Test("a request names no file: load_file and another root are refused; a bus is a number or /dev/i2c-N")
    func keys() {
        let iio = "/sys/bus/iio/devices"
        #expect(
            SetupServer.keyProblem("load_file", .string("/etc/shadow"), iioRoot: iio)?.contains("names a file") == true)
        #expect(SetupServer.keyProblem("root", .string("/"), iioRoot: iio)?.contains("names a file") == true)
        #expect(SetupServer.keyProblem("root", .string(iio), iioRoot: iio) == nil, "the server's own tree")
        #expect(SetupServer.keyProblem("bus", .string("/dev/i2c-1"), iioRoot: iio) == nil)
        #expect(SetupServer.keyProblem("bus", .string("1"), iioRoot: iio) == nil)
        #expect(SetupServer.keyProblem("bus", .int(1), iioRoot: iio) == nil)
        #expect(
            SetupServer.keyProblem("bus", .string("/dev/sda"), iioRoot: iio)?.contains("neither a bus number") == true)
        #expect(SetupServer.keyProblem("device", .string("iio:device0"), iioRoot: iio) == nil)
    }

    @Test("setup's temporary file is made anew: a link planted at its name is not followed, and the mode is exact")
    func temporaryFile() throws {
        let files = try TemporaryDirectory(prefix: "plumdoor")
        let victim = try files.write("victim", "keep me\n")
        let file = SetupFile(path: files.file("plumscale.toml"))
        try FileManager.default.createSymbolicLink(atPath: file.temporary, withDestinationPath: victim)
        try file.write("[[sensor]]\n", mode: 0o666)
        #expect(readFile(victim) == "keep me\n", "the link's target is untouched")
        #expect(readFile(file.path) == "[[sensor]]\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(attributes[.posixPermissions] as? Int == 0o666, "0666 whatever the umask")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: files.path).sorted() == ["plumscale.toml", "victim"])
    }

    @Test("the web's section: beyond this machine, lan_read_only is written; on loopback it is not")
    func webSection() throws {
        var plan = SetupConfiguration()
        plan.webListen = "0.0.0.0:8385"
        plan.webLanReadOnly = true
        let text = plan.render()
        #expect(text.contains("\nlan_read_only = true\n"), "\(text)")
        plan.webListen = "127.0.0.1:8385"
        plan.webLanReadOnly = nil
        #expect(!plan.render().contains("lan_read_only"))
        #expect(SetupWizard.isLoopback(.init(host: "127.0.0.1", port: 1)))
        #expect(SetupWizard.isLoopback(.init(host: "::1", port: 1)))
        #expect(!SetupWizard.isLoopback(.init(host: "0.0.0.0", port: 1)))
        #expect(!SetupWizard.isLoopback(.init(host: "192.168.1.5", port: 1)))
    }
}
