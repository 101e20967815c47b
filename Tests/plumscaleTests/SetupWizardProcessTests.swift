import Foundation
import PlumDaemonConfig
import PlumSettings
import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale setup --answers` as a child process, against a real plumscaled on a simulated pan.
@Suite("plumscale setup --answers, as a child process", .tags(.process), .timeLimit(.minutes(5)), .ownThreads)
struct SetupWizardProcessTests {
    /// The services' binaries as setup looks them up: none installed unless a test says so.
    static let noServices = ["PLUMSCALE_MQTT_BINARY": "", "PLUMSCALE_WEB_BINARY": ""]

    static func answers(_ scale: ScaleFixture, overwrite: Bool = true, more: String = "") -> String {
        answers(loadFile: "\(scale.directory)/pan.grams", overwrite: overwrite, more: more)
    }

    static func answers(loadFile: String, overwrite: Bool, more: String = "") -> String {
        """
        overwrite = \(overwrite)

        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = 3
        load_file = "\(loadFile)"

        [groups]
        admin_group = "plumscale-admin"
        \(more)
        """
    }

    static func arguments(answers: String, config: String, credentials: String) -> [String] {
        [
            "setup", "--answers", answers, "--config", config, "--credentials-dir", credentials, "--no-systemd",
            "--no-hx711", "--daemon-wait", "60"
        ]
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    @Test("a full run writes the configuration, waits for the daemon, calibrates, writes a 0600 credential")
    func fullRun() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let credentials = try files.makeDirectory("credentials")
        let password = try files.write("mqtt.txt", "broker secret\n")
        let port = try LoopbackPort.free()
        let answers = try files.write(
            "answers.toml",
            Self.answers(
                scale,
                more: """
                    [[calibration]]
                    sensor = "pan"
                    points = [0, 100]
                    wait = 60

                    [mqtt]
                    host = "127.0.0.1"
                    port = \(port)
                    username = "plumscale"
                    password_file = "\(password)"
                    scale_id = "kitchen"
                    """))
        let config = scale.directory + "/plumscale.toml"
        let run = try await scale.run(
            Self.arguments(answers: answers, config: config, credentials: credentials),
            placing: [("calibrate pan: place 100 g", 100)], on: "pan",
            environment: ["PLUMSCALE_MQTT_BINARY": BuiltProducts.plumscaleMQTT, "PLUMSCALE_WEB_BINARY": ""])
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        for line in [
            "probe: ", "sensors: pan (simulated-hx711", "--- \(config)", "configuration: wrote \(config)",
            "daemon: answering with sensors pan", "calibration saved to \(scale.directory)/state/",
            "calibrate pan: saved", "mqtt: [mqtt] host 127.0.0.1, port \(port), username plumscale",
            "web: plumscale-web is not installed", "home assistant: the device \"PlumScale kitchen\"", "done"
        ] {
            #expect(run.stdout.contains(line), "no '\(line)' in: \(run.stdout)")
        }
        let configuration = try PlumConfiguration.load(path: config)
        #expect(configuration.sensors.map(\.name) == ["pan"])
        #expect(configuration.daemon.adminGroup == "plumscale-admin")
        let mqtt = try MQTTBridgeConfiguration.parse(readFile(config), file: config).mqtt
        #expect(mqtt.host == "127.0.0.1" && mqtt.port == port && mqtt.scaleID == "kitchen")
        #expect(!readFile(config).contains("broker secret"), "the password is never in the configuration")
        let credential = credentials + "/mqtt-password"
        #expect(readFile(credential) == "broker secret\n")
        #expect(Self.mode(credential) == 0o600)
        #expect(Self.mode(config) == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: credentials) == ["mqtt-password"])
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout) - 100) <= 0.2, "the calibrated pan weighs its 100 g: \(read.stdout)")
    }

    @Test("with systemd, the daemon is restarted and the bridge's unit enabled and restarted through systemctl")
    func systemd() async throws {
        let scale = try await ScaleFixture.start([("pan", 0)])
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let log = files.file("systemctl.log")
        // A systemctl that knows the three units and writes down what it was asked.
        let systemctl = try files.write(
            "systemctl",
            """
            #!/bin/sh
            echo "$*" >> \(log)
            case "$1 $2" in
              "cat plumscaled.service"|"cat plumscaled.socket"|"cat plumscale-mqtt.service") exit 0 ;;
              cat*) exit 1 ;;
            esac
            exit 0
            """)
        #expect(chmod(systemctl, 0o755) == 0)
        let answers = try files.write(
            "answers.toml",
            Self.answers(scale, more: "[mqtt]\nhost = \"127.0.0.1\"\nport = \(try LoopbackPort.free())\n"))
        var arguments = Self.arguments(answers: answers, config: files.file("plumscale.toml"), credentials: files.path)
        arguments.removeAll { $0 == "--no-systemd" }
        let run = try await scale.run(
            arguments, placing: [], on: "pan",
            environment: [
                "PLUMSCALE_SYSTEMCTL": systemctl, "PLUMSCALE_MQTT_BINARY": BuiltProducts.plumscaleMQTT,
                "PLUMSCALE_WEB_BINARY": ""
            ])
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let calls = readFile(log).split(separator: "\n").filter { !$0.hasPrefix("cat ") }
        #expect(
            calls == [
                "start plumscaled.socket", "restart plumscaled.service", "enable plumscale-mqtt.service",
                "restart plumscale-mqtt.service"
            ], "\(calls)")
        #expect(run.stdout.contains("daemon: restarted plumscaled.service"), "\(run.stdout)")
        #expect(run.stdout.contains("services: enabled and restarted plumscale-mqtt.service"), "\(run.stdout)")
    }

    @Test("an existing file that differs is not replaced without overwrite = true: the diff is shown, exit 2")
    func differentFileKept() async throws {
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let old = "[[sensor]]\nname = \"other\"\nkind = \"simulated-hx711\"\n"
        let config = try files.write("conf/plumscale.toml", old)
        let answers = try files.write(
            "answers.toml", Self.answers(loadFile: files.file("pan.grams"), overwrite: false))
        let run = await ChildProcess.plumscale(
            Self.arguments(answers: answers, config: config, credentials: files.path), environment: Self.noServices)
        #expect(run.status == 2, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.stdout.contains("--- \(config)\n+++ \(config) (from setup)"), "\(run.stdout)")
        #expect(
            run.stdout.contains("\n-name = \"other\"\n") && run.stdout.contains("\n+name = \"pan\"\n"), "\(run.stdout)")
        #expect(run.stderr.contains("overwrite = true"), "\(run.stderr)")
        #expect(readFile(config) == old, "the old file is unchanged")
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path + "/conf") == ["plumscale.toml"])
    }

    @Test("a second run with the same answers finds the file as it would write it and leaves it alone")
    func identicalFileLeftAlone() async throws {
        let scale = try await ScaleFixture.start([("pan", 0)])
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let config = files.file("plumscale.toml")
        let answers = try files.write("answers.toml", Self.answers(scale, overwrite: false))
        let arguments = Self.arguments(answers: answers, config: config, credentials: files.path)
        let first = try await scale.run(arguments, placing: [], on: "pan", environment: Self.noServices)
        #expect(first.status == 0, "stdout: \(first.stdout)\nstderr: \(first.stderr)")
        #expect(first.stdout.contains("configuration: wrote \(config)"), "\(first.stdout)")
        #expect(first.stdout.contains("calibrate pan: skipped"), "\(first.stdout)")
        var before = stat()
        #expect(stat(config, &before) == 0)
        let second = try await scale.run(arguments, placing: [], on: "pan", environment: Self.noServices)
        #expect(second.status == 0, "stdout: \(second.stdout)\nstderr: \(second.stderr)")
        #expect(second.stdout.contains("is already as setup would write it; left alone"), "\(second.stdout)")
        #expect(!second.stdout.contains("--- "), "no diff for an identical file: \(second.stdout)")
        var after = stat()
        #expect(stat(config, &after) == 0)
        #expect(after.st_ino == before.st_ino, "not rewritten")
    }

    @Test("answers with a mistake stop setup before anything is written, naming the file, line and key")
    func badAnswers() async throws {
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let answers = try files.write("answers.toml", "[[sensor]]\nname = \"pan\"\nkind = \"hx711\"\nsdk = \"GPIO6\"\n")
        let config = files.file("plumscale.toml")
        let run = await ChildProcess.plumscale(
            Self.arguments(answers: answers, config: config, credentials: files.path), environment: Self.noServices)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("\(answers):4:") && run.stderr.contains("sdk"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: config))
    }

    static var webBuilt: Bool { FileManager.default.isExecutableFile(atPath: BuiltProducts.folder + "/plumscale-web") }

    @Test(
        "the web page's password is hashed by the real plumscale-web into a 0600 credential, and its URL printed",
        .enabled(if: webBuilt, "plumscale-web is not built (PLUMSCALE_WITHOUT_WEB=1 leaves it out)"))
    func webPassword() async throws {
        let scale = try await ScaleFixture.start([("pan", 0)])
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let credentials = try files.makeDirectory("credentials")
        let password = try files.write("web.txt", "correct horse battery staple\n")
        let answers = try files.write(
            "answers.toml",
            Self.answers(
                scale, more: "[web]\nlisten = \"127.0.0.1:8399\"\npassword_file = \"\(password)\"\n"))
        let config = files.file("plumscale.toml")
        let run = try await scale.run(
            Self.arguments(answers: answers, config: config, credentials: credentials), placing: [], on: "pan",
            environment: ["PLUMSCALE_MQTT_BINARY": "", "PLUMSCALE_WEB_BINARY": BuiltProducts.folder + "/plumscale-web"])
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let hash = readFile(credentials + "/web-password")
        #expect(hash.hasPrefix("$2") && !hash.contains("correct horse"), "a bcrypt hash: \(hash)")
        #expect(Self.mode(credentials + "/web-password") == 0o600)
        #expect(
            try WebSettings.parse(readFile(config), file: config).listen
                == WebListenAddress(host: "127.0.0.1", port: 8399))
        #expect(run.stdout.contains("open: http://127.0.0.1:8399/"), "\(run.stdout)")

        // A password plumscale-web refuses: its reason, and the hash in place is kept.
        writeFile(password, "short\n")
        let refused = try await scale.run(
            Self.arguments(answers: answers, config: config, credentials: credentials), placing: [], on: "pan",
            environment: ["PLUMSCALE_MQTT_BINARY": "", "PLUMSCALE_WEB_BINARY": BuiltProducts.folder + "/plumscale-web"])
        #expect(refused.status == 1, "stdout: \(refused.stdout)\nstderr: \(refused.stderr)")
        #expect(refused.stderr.contains("hash-password refused the password"), "\(refused.stderr)")
        #expect(refused.stderr.contains("at least 10"), "\(refused.stderr)")
        #expect(readFile(credentials + "/web-password") == hash, "the hash in place is kept")
    }

    @Test(
        "the page listens on this machine alone by default; beyond it, other machines only read unless the answers say",
        .enabled(if: webBuilt, "plumscale-web is not built (PLUMSCALE_WITHOUT_WEB=1 leaves it out)"))
    func webListenDefault() async throws {
        let scale = try await ScaleFixture.start([("pan", 0)])
        let files = try TemporaryDirectory(prefix: "plumsetup")
        let credentials = try files.makeDirectory("credentials")
        let password = try files.write("web.txt", "correct horse battery staple\n")
        let config = files.file("plumscale.toml")
        for (web, listen, readOnly) in [
            ("", WebListenAddress(host: "127.0.0.1", port: 8385), false),
            ("listen = \"0.0.0.0:8399\"\n", WebListenAddress(host: "0.0.0.0", port: 8399), true),
            ("listen = \"0.0.0.0:8399\"\nlan_read_only = false\n", WebListenAddress(host: "0.0.0.0", port: 8399), false)
        ] {
            let answers = try files.write(
                "answers.toml", Self.answers(scale, more: "[web]\n\(web)password_file = \"\(password)\"\n"))
            let run = try await scale.run(
                Self.arguments(answers: answers, config: config, credentials: credentials), placing: [], on: "pan",
                environment: [
                    "PLUMSCALE_MQTT_BINARY": "", "PLUMSCALE_WEB_BINARY": BuiltProducts.folder + "/plumscale-web"
                ])
            #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
            let settings = try WebSettings.parse(readFile(config), file: config)
            #expect(settings.listen == listen, "answers [web] \(web): \(readFile(config))")
            #expect(settings.lanReadOnly == readOnly, "answers [web] \(web): \(readFile(config))")
        }
    }
}
