import ArgumentParser
import PlumBench
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// 3. The fan-out's cost in instructions: what the daemon executes to hand one report to one
/// client, counted by callgrind, so that a change of a few percent shows where the latency's
/// noise hides it.
struct FanOutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fan-out",
        abstract: "Instructions the daemon executes per report and watching client, under callgrind.",
        discussion: """
            Runs plumscaled under valgrind --tool=callgrind, counting only inside the fan-out: ClientHub.publish \
            (queueing a report for every client) and the event loops' drains (writing it to each socket, \
            SwiftNIO's path included, the kernel's not). The sensor is a simulated FSR on an ADS1115 at 128 SPS: \
            a bit-banged HX711 misses its clock under valgrind. The count is divided by the WEIGHT reports the \
            clients received.
            """)

    @Option(help: "Watching clients.")
    var clients: Int = 64
    @Option(help: "Seconds to watch after a second of warm-up.")
    var seconds: Double = 10
    @Option(
        name: .customLong("daemon"),
        help: ArgumentHelp("The plumscaled to measure; by default the one built beside this program."))
    var program: String = DaemonUnderTest.binary
    @Option(
        help: ArgumentHelp("Keep callgrind's profile at this path, for callgrind_annotate (by default it is removed).")
    )
    var profile: String?

    func validate() throws {
        guard clients >= 1 else { throw ValidationError("--clients must be at least 1 (got \(clients))") }
        guard seconds >= 1 else { throw ValidationError("--seconds must be at least 1 (got \(seconds))") }
    }

    func run() throws {
        ClientSwarm.raiseDescriptorLimit()
        guard let valgrind = Callgrind.valgrind else { throw BenchError(Callgrind.missing) }
        guard access(program, X_OK) == 0 else {
            throw BenchError("no executable plumscaled at \(program); build it first: swift build -c release")
        }
        let copy = "/tmp/plumscaled-nodebug-\(getpid())"
        defer { unlink(copy) }
        try Callgrind.copyWithoutDebugInformation(program, to: copy)
        let profile = self.profile ?? "/tmp/plumscale-bench-fan-out-\(getpid()).callgrind"
        defer { if self.profile == nil { unlink(profile) } }
        let toml =
            "[daemon]\nmax_clients = \(clients + 16)\nclient_queue = 512\n\n[[sensor]]\nname = \"pan\"\n"
            + "kind = \"simulated-fsr\"\ndata_rate = 128\nload_grams = 100\n"
        let daemon = try DaemonUnderTest(
            configuration: toml, program: copy,
            launcher: [
                valgrind, "--tool=callgrind", "--callgrind-out-file=\(profile)",
                "--toggle-collect=*ClientHub*publish*", "--toggle-collect=*LoopDrains*run*"
            ])
        let swarm = ClientSwarm()
        try swarm.connect(clients, to: daemon.socket)
        swarm.sendAll(.watch(WatchOptions()))
        var reports = 0
        let count: (Int, Substring, Double) -> Void = { _, line, _ in
            if LineFields.isClass(line, "WEIGHT") { reports += 1 }
        }
        swarm.read(until: Clock.now() + 1 + seconds, count)
        daemon.stop()
        // What was written before the daemon stopped still counts: read to the end of each.
        swarm.read(until: Clock.now() + 2, count)

        guard let text = DaemonUnderTest.read(profile),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }
            ),
            let instructions = Int(line.split(separator: ":").last?.trimmingCharacters() ?? "")
        else {
            throw daemon.failure("no totals from callgrind in \(profile)")
        }
        guard reports > 0 else {
            throw daemon.failure("the clients received no WEIGHT report")
        }
        print(
            "\nFan-out: \(program) under callgrind, one simulated FSR at 128 SPS, \(clients) watchers for "
                + "\(fixed(seconds, 0)) s (and 1 s of warm-up)\n")
        print(
            TextTable.render(
                header: ["measure", "value"],
                rows: [
                    ["instructions in ClientHub.publish and the loops' drains", "\(instructions)"],
                    ["WEIGHT reports received, all clients", "\(reports)"],
                    ["instructions per report and client", fixed(Double(instructions) / Double(reports), 0)]
                ]))
        if self.profile != nil {
            print("\nprofile: \(profile) (callgrind_annotate --inclusive=yes \(profile))")
        }
    }
}
