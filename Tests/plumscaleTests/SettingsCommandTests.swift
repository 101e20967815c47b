import PlumTestSupport
import PlumTestThreads
import Testing

/// `plumscale tare --preset/--save/--use/--list/--delete` and `plumscale alert` against a real
/// plumscaled: the words a user reads and the exit codes a script checks.
@Suite("plumscale's settings commands against a real plumscaled", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct SettingsCommandTests {
    @Test("a bowl tared and saved by name, a crate by weight; listed, used as the tare, refused, deleted")
    func namedTares() async throws {
        let scale = try await ScaleFixture.start([("pan", 212.3)])
        let tare = await scale.plumscale(["tare"])
        #expect(tare.status == 0, "stderr: \(tare.stderr)")
        let bowl = tare.stdout.firstMatch(of: /tare ([0-9.]+) g;/).flatMap { Double(String($0.1)) } ?? .nan
        #expect(abs(bowl - 212.3) < 1, "\(tare.stdout)")

        let saved = await scale.plumscale(["tare", "--save", "bowl"])
        #expect(saved.status == 0 && saved.stdout.hasPrefix("saved \"bowl\": 2"), "\(saved.stdout) \(saved.stderr)")
        #expect(grams(in: saved.stdout) == bowl, "the tare in use is saved: \(saved.stdout), tare \(bowl)")
        let crate = await scale.plumscale(["tare", "--save", "crate 1", "--grams", "150"])
        #expect(crate.stdout == "saved \"crate 1\": 150.0 g\n", "\(crate.stdout) \(crate.stderr)")

        let list = await scale.plumscale(["tare", "--list"])
        #expect(list.stdoutLines.count == 2 && list.stdoutLines[1] == "crate 1  150.0 g", "\(list.stdout)")
        #expect(list.stdoutLines[0].hasPrefix("bowl     2"), "names line up: \(list.stdout)")

        let used = await scale.plumscale(["tare", "--use", "crate 1"])
        #expect(used.stdout == "pan: tare 150.0 g (crate 1); showing net weight\n", "\(used.stdout) \(used.stderr)")
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout) - (212.3 - 150)) < 1, "net of the crate's 150 g: \(read.stdout)")

        let unknown = await scale.plumscale(["tare", "--use", "box"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no named tare \"box\""), "\(unknown.stderr)")
        let heavy = await scale.plumscale(["tare", "--preset", "5000"])
        #expect(heavy.status == 2 && heavy.stderr.contains("between 0 and the capacity"), "\(heavy.stderr)")
        let preset = await scale.plumscale(["tare", "--preset", "12.34"])
        #expect(preset.stdout == "pan: tare 12.3 g; showing net weight\n", "rounded to d: \(preset.stdout)")

        let deleted = await scale.plumscale(["tare", "--delete", "bowl"])
        #expect(deleted.stdout == "deleted \"bowl\"\n", "\(deleted.stdout) \(deleted.stderr)")
        let again = await scale.plumscale(["tare", "--delete", "bowl"])
        #expect(again.status == 2 && again.stderr.contains("no named tare \"bowl\" to delete"), "\(again.stderr)")
        let badName = await scale.plumscale(["tare", "--save", "a/b", "--grams", "3"])
        #expect(badName.status == 2 && badName.stderr.contains("is not allowed"), "\(badName.stderr)")
    }

    @Test(
        "contradictory tare options are refused before anything is sent",
        arguments: [
            (["tare", "--save", "a", "--list"], "give one of --preset"),
            (["tare", "--grams", "3"], "--grams goes with --save"),
            (["tare", "--save", "a", "--grams", "0"], "--grams must be more than 0"),
            (["tare", "--list", "--sensor", "pan"], "leave out --sensor"),
            (["alert", "fruit-low"], "give --threshold, --hysteresis or both, or --clear alone"),
            (["alert", "fruit-low", "--clear", "--threshold", "3"], "--clear alone"),
            (["alert", "fruit-low", "--hysteresis=-2"], "--hysteresis must be 0 or more")
        ])
    func refusedOptions(arguments: [String], mentions: String) async {
        let run = await ChildProcess.plumscale(arguments, environment: ["PLUMSCALE_SOCKET": "/nonexistent/socket"])
        #expect(run.status == 64 && run.stderr.contains(mentions), "status \(run.status): \(run.stderr)")
    }

    @Test("alert sets a threshold and hysteresis at runtime, refuses an unknown name, and --clear puts the file's back")
    func alertCommand() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcli")
        let configuration = """
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            load_grams = 100

            [[alert]]
            name = "fruit-low"
            sensor = "pan"
            below = 200
            hysteresis = 20
            """
        let daemon = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        let socket = ["PLUMSCALE_SOCKET": daemon.socketPath]
        let set = await ChildProcess.plumscale(
            ["alert", "fruit-low", "--threshold", "50", "--hysteresis", "5"], environment: socket)
        #expect(
            set.stdout == "fruit-low on pan: below 50.0 g, hysteresis 5.0 g; clear\n", "\(set.stdout) \(set.stderr)")
        let unknown = await ChildProcess.plumscale(["alert", "fruit-high", "--threshold", "5"], environment: socket)
        #expect(unknown.status == 2 && unknown.stderr.contains("alerts: \"fruit-low\""), "\(unknown.stderr)")
        let cleared = await ChildProcess.plumscale(["alert", "fruit-low", "--clear"], environment: socket)
        #expect(cleared.stdout.hasPrefix("fruit-low on pan: below 200.0 g, hysteresis 20.0 g;"), "\(cleared.stdout)")
    }
}
