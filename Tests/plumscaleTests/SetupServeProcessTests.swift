import Foundation
import PlumDaemonConfig
import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale setup --serve`, the web page's first run, as a child process: one request on
/// standard input, one JSON reply on standard output, with the configuration in a temporary
/// directory, a fake hardware tree and no systemd.
@Suite("plumscale setup --serve, as a child process", .tags(.process), .timeLimit(.minutes(5)), .ownThreads)
struct SetupServeProcessTests {
    /// A probe tree with one IIO HX711, and the arguments of a server on it.
    struct Setup {
        let files: TemporaryDirectory
        var config: String { files.file("etc/plumscale.toml") }

        init() throws {
            files = try TemporaryDirectory(prefix: "plumserve")
            try files.write("tree/sys/bus/iio/devices/iio:device0/name", "hx711\n")
            _ = try files.makeDirectory("etc")
        }

        func arguments(socket: String? = nil) -> [String] {
            [
                "setup", "--serve", "--config", config, "--credentials-dir", files.path, "--no-systemd",
                "--probe-root", files.file("tree"), "--socket", socket ?? files.file("nobody.sock"),
                "--daemon-wait", "60"
            ]
        }

        /// Runs one request; the reply as an object, and the run.
        func ask(_ request: String, socket: String? = nil) async throws -> ([String: Any], ChildProcess) {
            let run = await ChildProcess.plumscale(arguments(socket: socket), input: request + "\n")
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdoutLines.count == 1, "one line of reply: \(run.stdout)")
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return (try #require(object, "not a JSON object: \(run.stdout)"), run)
        }
    }

    /// A simulated pan the scale fixture's daemon also has, so that apply's wait finds it. (No
    /// `load_file`: a request may not name files.)
    static func pan(_ scale: ScaleFixture) -> String {
        #"{"name":"pan","kind":"simulated-hx711","seed":3}"#
    }

    @Test("state: no file is not set up; the package's example is not set up; setup's own file is")
    func state() async throws {
        let setup = try Setup()
        let (none, _) = try await setup.ask(#"{"request":"state"}"#)
        #expect(none["ok"] as? Bool == true && none["set_up"] as? Bool == false && none["exists"] as? Bool == false)
        #expect((none["problem"] as? String)?.contains("does not exist") == true, "\(none)")
        writeFile(setup.config, "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n")
        let example = try await setup.ask(#"{"request":"state"}"#).0
        #expect(example["set_up"] as? Bool == false && example["written_by_setup"] as? Bool == false, "\(example)")
        #expect((example["sensors"] as? [[String: Any]])?.first?["name"] as? String == "pan")
        writeFile(setup.config, "# PlumScale's configuration, written by `plumscale setup`.\n" + readFile(setup.config))
        let own = try await setup.ask(#"{"request":"state"}"#).0
        #expect(own["set_up"] as? Bool == true, "\(own)")
    }

    @Test("probe: the hardware found and setup's choices, the HX711 watched on the pins named")
    func probe() async throws {
        let setup = try Setup()
        let (reply, _) = try await setup.ask(#"{"request":"probe","hx711":false}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let choices = try #require(reply["choices"] as? [[String: Any]])
        #expect(choices.map { $0["what"] as? String } == ["iio:device0 [hx711] through the kernel's driver"])
        let sensor = try #require(choices.first?["sensor"] as? [String: Any])
        #expect(sensor["name"] as? String == "kernel-hx711" && sensor["kind"] as? String == "iio")
        #expect(sensor["device"] as? String == "iio:device0")
        #expect((reply["summary"] as? String)?.contains("IIO iio:device0 [hx711]") == true, "\(reply)")
        let named = try await setup.ask(#"{"request":"probe","hx711":{"dout":"GPIO17","sck":"GPIO27"}}"#)
        let report = try #require(named.0["report"] as? [String: Any])
        // The tree has no GPIO chip: the watch of the pins named says why it could not run.
        #expect(report["hx711"] != nil || report["hx711_skipped"] != nil, "\(report)")
        #expect(named.1.stderr.contains("probe: "), "the wizard's progress goes to standard error: \(named.1.stderr)")
    }

    @Test("preview without a file: the text setup writes, checked, and nothing to confirm; nothing written")
    func previewNew() async throws {
        let setup = try Setup()
        let sensor = #"{"name":"kitchen","kind":"iio","device":"iio:device0","profile":"iio-hx711-1kg"}"#
        let (reply, _) = try await setup.ask(#"{"request":"preview","sensors":[\#(sensor)]}"#)
        #expect(reply["ok"] as? Bool == true && reply["exists"] as? Bool == false, "\(reply)")
        #expect(reply["confirm"] == nil)
        let text = try #require(reply["text"] as? String)
        for line in ["name = \"kitchen\"", "kind = \"iio\"", "admin_group = \"plumscale-admin\""] {
            #expect(text.contains(line), "no '\(line)' in \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: setup.config))
    }

    @Test("apply writes the file atomically, loadable by the daemon's loader, and waits for plumscaled")
    func apply() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let setup = try Setup()
        let (reply, run) = try await setup.ask(
            #"{"request":"apply","sensors":[\#(Self.pan(scale))]}"#, socket: scale.socket)
        #expect(reply["ok"] as? Bool == true, "\(reply) stderr: \(run.stderr)")
        #expect(reply["calibrate"] as? [String] == ["pan"] && reply["written"] as? Bool == true)
        #expect(run.stderr.contains("daemon: answering with sensors pan"), "\(run.stderr)")
        let configuration = try PlumConfiguration.load(path: setup.config)
        #expect(configuration.sensors.map(\.name) == ["pan"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.files.file("etc")) == ["plumscale.toml"])
        let state = try await setup.ask(#"{"request":"state"}"#).0
        #expect(state["set_up"] as? Bool == true, "\(state)")
    }

    @Test("a different file is replaced only with the confirm of its diff; without it, or with another, it is kept")
    func changedFile() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let setup = try Setup()
        let old = "[scale]\nrestore_tare = false\n\n[[sensor]]\nname = \"other\"\nkind = \"simulated-hx711\"\n"
        writeFile(setup.config, old)
        let sensors = #""sensors":[\#(Self.pan(scale))]"#
        let (preview, _) = try await setup.ask(#"{"request":"preview",\#(sensors)}"#)
        let confirm = try #require(preview["confirm"] as? String, "\(preview)")
        let diff = try #require(preview["diff"] as? String)
        #expect(diff.contains("\n-name = \"other\"\n") && diff.contains("\n+name = \"pan\"\n"), "\(diff)")
        for request in [
            #"{"request":"apply",\#(sensors)}"#, #"{"request":"apply",\#(sensors),"confirm":"0000000000000000-1"}"#
        ] {
            let (refused, _) = try await setup.ask(request, socket: scale.socket)
            #expect(refused["ok"] as? Bool == false)
            #expect((refused["error"] as? String)?.contains("nothing was written. Send preview") == true, "\(refused)")
            #expect(readFile(setup.config) == old)
        }
        let (applied, run) = try await setup.ask(
            #"{"request":"apply",\#(sensors),"confirm":"\#(confirm)"}"#, socket: scale.socket)
        #expect(applied["ok"] as? Bool == true, "\(applied) stderr: \(run.stderr)")
        let written = readFile(setup.config)
        #expect(written.contains("name = \"pan\"") && !written.contains("name = \"other\""), "\(written)")
        #expect(written.contains("[scale]\nrestore_tare = false"), "the section setup does not own is kept: \(written)")
    }

    @Test("once setup wrote the file, probe, preview and apply are refused, state is answered, and nothing is written")
    func refusedOnceSetUp() async throws {
        let setup = try Setup()
        let file =
            "# PlumScale's configuration, written by `plumscale setup`.\n[[sensor]]\nname = \"pan\"\n"
            + "kind = \"simulated-hx711\"\n"
        writeFile(setup.config, file)
        let state = try await setup.ask(#"{"request":"state"}"#).0
        #expect(state["ok"] as? Bool == true && state["set_up"] as? Bool == true, "\(state)")
        let sensor = #"{"name":"other","kind":"iio","device":"iio:device0"}"#
        for request in [
            #"{"request":"probe","hx711":false}"#, #"{"request":"preview","sensors":[\#(sensor)]}"#,
            #"{"request":"apply","sensors":[\#(sensor)]}"#
        ] {
            let (reply, _) = try await setup.ask(request)
            #expect(reply["ok"] as? Bool == false, "\(request): \(reply)")
            let error = reply["error"] as? String ?? ""
            #expect(error.contains("this scale is set up already"), "\(request): \(error)")
            #expect(error.contains("sudo plumscale setup --allow-web"), "says what to do: \(error)")
        }
        #expect(readFile(setup.config) == file)
    }

    @Test("root's leave (setup --allow-web) lets one apply in and is used up; an old leave, or a link, does not count")
    func leaveLetsOneApplyIn() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        let setup = try Setup()
        let file =
            "# PlumScale's configuration, written by `plumscale setup`.\n[[sensor]]\nname = \"pan\"\n"
            + "kind = \"simulated-hx711\"\n"
        writeFile(setup.config, file)
        let leave = setup.files.file("etc/web-setup-allowed")

        // A leave that does not count: a link to a file of root's, or one written over an hour ago.
        try FileManager.default.createSymbolicLink(atPath: leave, withDestinationPath: "/etc/hostname")
        let linked = try await setup.ask(#"{"request":"probe","hx711":false}"#).0
        #expect((linked["error"] as? String)?.contains("is not a regular file") == true, "\(linked)")
        try FileManager.default.removeItem(atPath: leave)
        writeFile(leave, "old\n")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200), .posixPermissions: 0o600],
            ofItemAtPath: leave)
        let old = try await setup.ask(#"{"request":"probe","hx711":false}"#).0
        #expect((old["error"] as? String)?.contains("was written more than 60 minutes ago") == true, "\(old)")

        // The leave as root leaves it: the probe and one apply pass, and the apply uses it up.
        let allow = await ChildProcess.plumscale(["setup", "--allow-web", "--config", setup.config])
        #expect(allow.status == 0, "\(allow.stdout) \(allow.stderr)")
        #expect(allow.stdout.contains("The web page may set this scale up again, once, until"), "\(allow.stdout)")
        let attributes = try FileManager.default.attributesOfItem(atPath: leave)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let probe = try await setup.ask(#"{"request":"probe","hx711":false}"#).0
        #expect(probe["ok"] as? Bool == true, "\(probe)")
        let sensors = #""sensors":[\#(Self.pan(scale))]"#
        let preview = try await setup.ask(#"{"request":"preview",\#(sensors)}"#, socket: scale.socket).0
        let confirm = try #require(preview["confirm"] as? String, "\(preview)")
        let (applied, run) = try await setup.ask(
            #"{"request":"apply",\#(sensors),"confirm":"\#(confirm)"}"#, socket: scale.socket)
        #expect(applied["ok"] as? Bool == true, "\(applied) stderr: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leave), "the apply used the leave up")
        let again = try await setup.ask(#"{"request":"probe","hx711":false}"#).0
        #expect((again["error"] as? String)?.contains("this scale is set up already") == true, "\(again)")
    }

    struct BadRequest: Sendable, CustomTestStringConvertible {
        var line: String
        var error: String
        var testDescription: String { line.isEmpty ? "(empty)" : line }
    }

    static let badRequests: [BadRequest] = [
        .init(line: "", error: "the request is empty; send one line of JSON"),
        .init(line: "state", error: "the request is not JSON"),
        .init(line: "[1]", error: "the request must be a JSON object"),
        .init(line: #"{"sensors":[]}"#, error: "the request has no \"request\" name"),
        .init(line: #"{"request":"reboot"}"#, error: "unknown request \"reboot\"; use one of state, probe"),
        .init(line: #"{"request":"state","force":true}"#, error: "state: unknown key \"force\"; it takes no other key"),
        .init(line: #"{"request":"probe","hx711":"yes"}"#, error: "probe: hx711 must be the pins to watch"),
        .init(line: #"{"request":"preview"}"#, error: "preview: sensors must be a list of one or more sensors"),
        .init(line: #"{"request":"apply","sensors":[5]}"#, error: "apply: sensor 1 is not an object"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"pan","kind":"hx711","sdk":"GPIO6"}]}"#,
            error: "sdk"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"pan","kind":"iio","x = 1\n[daemon]\ny":1}]}"#,
            error: "keys are letters, digits, '_' and '-'"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"pan","kind":"iio","device":{"a":1}}]}"#,
            error: "preview: sensor 1's device must be a string, a number, true or false"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"pan","kind":"hx711","chip":"gpiochip0","dout":"GPIO5"}]}"#,
            error: "set rate = 10 or 80"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"pan","kind":"hx711","chip":"/etc/shadow","rate":10}]}"#,
            error: "preview: sensor 1's chip \"/etc/shadow\" is a path other than /dev/gpiochipN"),
        .init(
            line: #"{"request":"probe","hx711":{"chip":"/dev/../etc/shadow"}}"#,
            error: "probe: hx711's chip \"/dev/../etc/shadow\" is a path other than /dev/gpiochipN"),
        .init(
            line:
                #"{"request":"preview","sensors":[{"name":"pan","kind":"simulated-hx711","load_file":"/etc/shadow"}]}"#,
            error: "preview: sensor 1's load_file names a file, which the web page may not choose"),
        .init(
            line: #"{"request":"preview","sensors":[{"name":"fsr","kind":"ads1115","bus":"/dev/sda"}]}"#,
            error: "bus \"/dev/sda\" is neither a bus number nor /dev/i2c-N")
    ]

    @Test("every bad request gets one JSON error naming what was wrong, and nothing is written", arguments: badRequests)
    func badRequest(_ bad: BadRequest) async throws {
        let setup = try Setup()
        let (reply, _) = try await setup.ask(bad.line)
        #expect(reply["ok"] as? Bool == false)
        #expect((reply["error"] as? String)?.contains(bad.error) == true, "\(reply)")
        #expect(!FileManager.default.fileExists(atPath: setup.config))
    }

    static var canDropRoot: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    @Test(
        "on a socket, a peer neither root nor in the admin group is refused, even with the socket open to all",
        .enabled(if: canDropRoot, "needs root, setpriv(1) and python3 to connect as nobody"))
    func peerRefused() async throws {
        let setup = try Setup()
        let path = "/tmp/plumserve-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let fixture = try SetupSocketFixture(
            path: path, arguments: Array(setup.arguments().dropFirst(2)), log: setup.files.file("serve.log"),
            mode: 0o777)
        defer { fixture.stop() }
        let client = """
            s = __import__("socket").socket(1)  # AF_UNIX
            s.connect("\(path)")
            s.sendall(b'{"request":"state"}\\n')
            print(s.makefile().readline(), end="")
            """
        let run = try await ChildProcess.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client])
        #expect(run.stdout.contains(#""ok":false"#), "stdout: \(run.stdout) stderr: \(run.stderr)")
        // "neither root nor in the group", or, where the group does not exist, "not root, and the group".
        #expect(run.stdout.contains("uid 65534 is ") && run.stdout.contains("refused"), "\(run.stdout)")
        let root = try await ChildProcess.run("/usr/bin/python3", ["-c", client])
        #expect(root.stdout.contains(#""ok":true"#), "root is let in: \(root.stdout) \(root.stderr)")
    }
}
