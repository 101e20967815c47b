import ArgumentParser
import PlumBench
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// 4. Footprint and cost per sample.
struct FootprintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footprint",
        abstract: "Daemon memory idle and under load, time to READY, and instructions per sample under callgrind.")

    @Option(help: "Samples for the instruction count (the difference of two runs, N and 2N, cancels start-up).")
    var samples: Int = 4000
    @Option(help: "Seconds of load (4 sensors, 64 raw watchers) for the peak memory.")
    var seconds: Double = 20
    @Option(
        name: .customLong("daemon"),
        help: ArgumentHelp(
            "The plumscaled to measure; by default the one built beside this program.",
            discussion:
                "For the package's daemon: dpkg-deb -x plumscale_*.deb /tmp/p, "
                + "then --daemon /tmp/p/usr/sbin/plumscaled."
        ))
    var program: String = DaemonUnderTest.binary

    func run() throws {
        ClientSwarm.raiseDescriptorLimit()
        try restingWithOneSensor()
        var toml = "[daemon]\nmax_clients = 128\n\n"
        for index in 1...4 {
            toml +=
                "[[sensor]]\nname = \"pan\(index)\"\nkind = \"simulated-hx711\"\nrate = 80\nseed = "
                + "\(index)\nload_grams = \(40 * index)\n\n"
        }
        let daemon = try DaemonUnderTest(configuration: toml, program: program)
        let ready = daemon.secondsToReady
        usleep(5_000_000)
        let idle = daemon.memory("VmRSS")
        let swarm = ClientSwarm()
        try swarm.connect(64, to: daemon.socket)
        swarm.sendAll(.watch(WatchOptions(raw: true)))
        swarm.read(until: Clock.now() + seconds) { _, _, _ in }
        let loaded = daemon.memory("VmRSS")
        let peak = daemon.memory("VmHWM")
        daemon.stop()

        print("\nFootprint: \(program) with 4 simulated HX711 at 80 SPS\n")
        print(
            TextTable.render(
                header: ["measure", "value"],
                rows: [
                    ["exec to READY=1", fixed(ready * 1000, 0) + " ms"],
                    ["resident memory, idle (5 s, no clients)", fixed(idle, 1) + " MiB"],
                    ["resident memory, 64 raw watchers for \(fixed(seconds, 0)) s", fixed(loaded, 1) + " MiB"],
                    ["peak resident memory (VmHWM)", fixed(peak, 1) + " MiB"]
                ]))

        print(
            "\nInstructions per processed sample (driver on the chip model + engine + WEIGHT report + one client's "
                + "socket), valgrind --tool=callgrind:"
        )
        guard let valgrind = Callgrind.valgrind else {
            print("  " + Callgrind.missing)
            return
        }
        let copy = "/tmp/plumscale-bench-nodebug-\(getpid())"
        defer { unlink(copy) }
        try Callgrind.copyWithoutDebugInformation(DaemonUnderTest.selfPath, to: copy)
        var perStage: [PerSampleCommand.Stage: Double] = [:]
        for stage in PerSampleCommand.Stage.allCases {
            let small = try Self.instructions(valgrind: valgrind, program: copy, samples: samples, stage: stage)
            let large = try Self.instructions(valgrind: valgrind, program: copy, samples: 2 * samples, stage: stage)
            perStage[stage] = Double(large - small) / Double(samples)
        }
        let driver = perStage[.driver] ?? .nan
        let engine = perStage[.engine] ?? .nan
        let client = perStage[.client] ?? .nan
        print(
            TextTable.render(
                header: ["stage", "instructions per sample"],
                rows: [
                    ["HX711 chip model + driver (virtual time)", fixed(driver, 0)],
                    ["weighing engine", fixed(engine - driver, 0)],
                    ["WEIGHT report encoded + written to a socket", fixed(client - engine, 0)],
                    ["end to end", fixed(client, 0)]
                ]))
        print(
            "(each the difference of callgrind counts for \(samples) and \(2 * samples) samples, so start-up cancels "
                + "out)"
        )
    }

    /// The target's case: one simulated HX711, no client, after 5 s. Resident memory is split
    /// into what the daemon allocated (anonymous pages: heap, stacks) and the pages of the program
    /// and its libraries mapped from their files (shared with the page cache, and dropped first
    /// under memory pressure).
    private func restingWithOneSensor() throws {
        let toml = "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\nrate = 80\nload_grams = 100\n"
        let resting = try DaemonUnderTest(configuration: toml, program: program)
        defer { resting.stop() }
        usleep(5_000_000)
        let rows = [
            ("resident memory (VmRSS)", "VmRSS"), ("  of which allocated by the daemon (RssAnon)", "RssAnon"),
            ("  of which its program and libraries (RssFile)", "RssFile")
        ].map { [$0.0, fixed(resting.memory($0.1), 1) + " MiB"] }
        print("Footprint: \(program) with one simulated HX711 at 80 SPS, at rest (5 s, no clients)\n")
        print(TextTable.render(header: ["measure", "value"], rows: rows))
    }

    /// The instructions callgrind counts for `plumscale-bench per-sample --samples N`.
    static func instructions(valgrind: String, program: String, samples: Int, stage: PerSampleCommand.Stage) throws
        -> Int
    {
        let output = "/tmp/plumscale-bench-callgrind-\(getpid())-\(samples)-\(stage.rawValue).txt"
        defer { unlink(output) }
        let command =
            "\(valgrind) --tool=callgrind --callgrind-out-file=/dev/null \(program) per-sample --samples \(samples) "
            + "--until \(stage.rawValue) >/dev/null 2>\(output)"
        guard system(command) == 0 else { throw BenchError("callgrind failed: \(command); see \(output)") }
        // callgrind ends with "==pid== Collected : N".
        guard let text = DaemonUnderTest.read(output),
            let line = text.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = Int(line.split(separator: ":").last?.trimmingCharacters() ?? "")
        else {
            throw BenchError("no 'Collected' line from callgrind in \(output)")
        }
        return count
    }
}
