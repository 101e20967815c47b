import Foundation
import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale setup --probe`, `--check` and the interactive wizard as a child process: what a script sees.
@Suite(
    "plumscale setup: --probe, --check and the interactive wizard, as a child process", .tags(.process),
    .timeLimit(.minutes(3)), .ownThreads)
struct SetupCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "output: \(text)")
    }

    @Test("--serve lets in root and group plumscale-setup by default, the socket's group, not plumscale-admin")
    func serveGroup() async throws {
        let run = await ChildProcess.plumscale(["setup", "--help"])
        // The option's help, which may wrap onto the next lines, up to the next option.
        let start = try #require(run.stdout.range(of: "--admin-group <group>"), "\(run.stdout)")
        let rest = run.stdout[start.upperBound...]
        let help = rest[..<(rest.range(of: "\n  --")?.lowerBound ?? rest.endIndex)]
        #expect(help.contains("(default: plumscale-setup)"), "\(help)")
    }

    @Test("--probe --json needs no configuration and has a section for each kind of hardware")
    func probeJSON() async throws {
        let run = await ChildProcess.plumscale(["setup", "--probe", "--json", "--no-hx711"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try Self.object(run.stdout)
        let board = try #require(report["board"] as? [String: Any])
        #expect(board["tried_files"] as? [String] == ["/proc/device-tree/model", "/sys/firmware/devicetree/base/model"])
        #expect(report["gpio_chips"] is [Any])
        #expect(report["i2c_buses"] is [Any])
        #expect(report["ads1115"] is [Any])
        #expect(report["iio"] is [Any])
        #expect(report["hx711_skipped"] as? String == "no HX711 pins named")
    }

    @Test("--probe on a chip that is not there says it could not watch DOUT, and why")
    func probeMissingChip() async throws {
        let run = await ChildProcess.plumscale(["setup", "--probe", "--chip", "no-such-chip-label"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("Board: "), "stdout: \(run.stdout)")
        #expect(
            run.stdout.contains("HX711 DT=GPIO5 SCK=GPIO6 on no-such-chip-label: could not watch DOUT"),
            "stdout: \(run.stdout)")
        #expect(run.stdout.contains("no-such-chip-label"), "stdout: \(run.stdout)")
    }

    @Test("--check is ok, exit 0, when every configured sensor is found")
    func checkOK() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        _ = try tree.makeDirectory("iio/iio:device0")
        writeFile(tree.file("iio/iio:device0/name"), "hx711\n")
        let config = try tree.write(
            "plumscale.toml",
            """
            [[sensor]]
            name = "pan"
            kind = "iio"
            device = "hx711"
            root = "\(tree.file("iio"))"

            [[sensor]]
            name = "sim"
            kind = "simulated-hx711"
            """)
        let run = await ChildProcess.plumscale(["setup", "--check", "--config", config, "--json"])
        #expect(run.status == 0, "stdout: \(run.stdout) stderr: \(run.stderr)")
        let report = try Self.object(run.stdout)
        #expect(report["ok"] as? Bool == true)
        let sensors = try #require(report["sensors"] as? [[String: Any]])
        #expect(sensors.map { $0["sensor"] as? String } == ["pan", "sim"])
        #expect(sensors.map { $0["status"] as? String } == ["ok", "ok"])
        #expect((sensors[0]["finding"] as? String)?.contains("iio:device0 [hx711]") == true)
    }

    @Test("--check reports a missing sensor as a problem with what to do, and exits 3")
    func checkProblem() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        _ = try tree.makeDirectory("iio")
        let config = try tree.write(
            "plumscale.toml",
            """
            [[sensor]]
            name = "pan"
            kind = "iio"
            device = "hx711"
            root = "\(tree.file("iio"))"
            """)
        let run = await ChildProcess.plumscale(["setup", "--check", "--config", config])
        #expect(run.status == 3, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stdout.hasPrefix("pan (iio): problem: "), "stdout: \(run.stdout)")
        #expect(run.stdout.contains("what to do: load the kernel driver"), "stdout: \(run.stdout)")
    }

    @Test("--check without a readable configuration is a configuration error, exit 1")
    func checkNoConfig() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        let run = await ChildProcess.plumscale(["setup", "--check", "--config", tree.file("missing.toml")])
        #expect(run.status == 1, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("missing.toml"), "stderr: \(run.stderr)")
    }

    @Test("--probe and --check together are a usage error")
    func usage() async throws {
        let run = await ChildProcess.plumscale(["setup", "--probe", "--check"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("give --probe or --check, not both"), "stderr: \(run.stderr)")
    }

    @Test("setup with neither runs the wizard: with no sensor to offer it says what to check and writes nothing")
    func wizardFindsNothing() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        let config = tree.file("plumscale.toml")
        let run = await ChildProcess.plumscale(
            [
                "setup", "--no-hx711", "--config", config, "--credentials-dir", tree.path, "--no-systemd",
                "--probe-root", tree.path
            ])
        #expect(run.status == 1, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stdout.contains("probe: "), "stdout: \(run.stdout)")
        #expect(run.stderr.contains("the probe found no sensor PlumScale can read"), "stderr: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: config))
    }

    @Test("the interactive wizard offers what the probe found and writes the sensor chosen, with the default groups")
    func wizardChoice() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        try tree.write("sys/bus/iio/devices/iio:device0/name", "hx711\n")
        let config = tree.file("plumscale.toml")
        // 1: the only sensor offered; Enter for its name, both groups, no buzzer and no button.
        let run = await ChildProcess.plumscale(
            [
                "setup", "--no-hx711", "--config", config, "--credentials-dir", tree.path, "--no-systemd",
                "--probe-root", tree.path, "--socket", tree.file("nobody.sock"), "--daemon-wait", "0.5"
            ], input: "1\n\n\n\n\n\n")
        #expect(run.stdout.contains("1. iio:device0 [hx711] through the kernel's driver"), "stdout: \(run.stdout)")
        #expect(run.stdout.contains("configuration: wrote \(config)"), "stdout: \(run.stdout)")
        // No daemon runs on that socket: the wizard stops there, saying so.
        #expect(run.status == 6, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("plumscaled did not answer within"), "stderr: \(run.stderr)")
        let written = readFile(config)
        for line in [
            "name = \"kernel-hx711\"", "kind = \"iio\"", "device = \"iio:device0\"",
            "root = \"\(tree.path)/sys/bus/iio/devices\"", "profile = \"iio-hx711-1kg\"",
            "socket_group = \"plumscale\"", "admin_group = \"plumscale-admin\""
        ] {
            #expect(written.contains(line), "no '\(line)' in: \(written)")
        }
    }

    @Test("interactively, a different file is replaced only after its diff and a yes; no leaves it as it was")
    func wizardAsksBeforeReplacing() async throws {
        let tree = try TemporaryDirectory(prefix: "plumsetup")
        try tree.write("sys/bus/iio/devices/iio:device0/name", "ads1115\n")
        let old = "[[sensor]]\nname = \"mine\"\nkind = \"simulated-hx711\"\n"
        let config = try tree.write("plumscale.toml", old)
        let arguments = [
            "setup", "--no-hx711", "--config", config, "--credentials-dir", tree.path, "--no-systemd",
            "--probe-root", tree.path, "--socket", tree.file("nobody.sock"), "--daemon-wait", "0.5"
        ]
        // 1, then Enter for the name, the groups, no buzzer and no button; then the answer to the diff.
        let no = await ChildProcess.plumscale(arguments, input: "1\n\n\n\n\n\nn\n")
        #expect(no.status == 2, "stdout: \(no.stdout) stderr: \(no.stderr)")
        #expect(no.stdout.contains("\n-name = \"mine\"\n"), "the diff: \(no.stdout)")
        #expect(no.stderr.contains("Replace \(config) with this?"), "\(no.stderr)")
        #expect(readFile(config) == old)
        let yes = await ChildProcess.plumscale(arguments, input: "1\n\n\n\n\n\ny\n")
        #expect(yes.stdout.contains("configuration: wrote \(config)"), "stdout: \(yes.stdout) stderr: \(yes.stderr)")
        #expect(readFile(config).contains("name = \"kernel-ads1115\""), "\(readFile(config))")
    }

    static var canDropRoot: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    @Test(
        "the wizard as another user, on the default paths, stops at once and says to run it as root",
        .enabled(if: canDropRoot, "needs root and setpriv(1) to run plumscale as nobody"))
    func notRoot() async throws {
        let run = try await ChildProcess.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", BuiltProducts.plumscale, "setup", "--no-hx711"])
        #expect(run.status == 64, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("you are not root") && run.stderr.contains("sudo plumscale setup"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing probed or written: \(run.stdout)")
    }
}
