import Foundation
import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale setup --probe` and `--check` as a child process: what a script sees.
@Suite("plumscale setup --probe and --check, as a child process", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct SetupCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "output: \(text)")
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

    @Test("setup with neither --probe nor --check is a usage error that says the wizard is not there yet")
    func usage() async throws {
        let run = await ChildProcess.plumscale(["setup"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("give --probe or --check"), "stderr: \(run.stderr)")
    }
}
