import ArgumentParser
import PlumBench
import PlumDrivers

/// `plumscale-bench`: the figures behind docs/PERFORMANCE.md.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale-bench",
        abstract: "PlumScale's benchmarks: they print figures; docs/PERFORMANCE.md says how to read them.",
        discussion: """
            Build in release mode first and run each as: swift run -c release plumscale-bench <name>.
            Without a name it runs 'settling'. 'capture', 'latency', 'fan-out', 'footprint' and 'gpsd' start the real \
            plumscaled built beside this program; 'gpsd' also starts Debian's gpsd.
            """,
        subcommands: [
            SettlingCommand.self, CaptureCommand.self, LatencyCommand.self, FanOutCommand.self, FootprintCommand.self,
            PerSampleCommand.self, ItemsCommand.self, DisplayCommand.self,
            GPSDCommand.self
        ],
        defaultSubcommand: SettlingCommand.self)
}

/// 1. Time to a trustworthy weight, against the peers' filters.
struct SettlingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settling",
        abstract: "Measure PlumScale's filters against the peers' on seeded chip-model workloads.")

    @Option(help: "The seed for the chip model's noise and the workloads.")
    var seed: UInt64 = 2026

    @Option(
        name: .customLong("trace-dir"),
        help: ArgumentHelp("Also write every workload as CSV traces here.", valueName: "dir"))
    var traceDirectory: String?

    @Option(
        name: .customLong("stability-window"),
        help: ArgumentHelp(
            "The motion rule's window in milliseconds, for PlumScale and every peer alike.", valueName: "ms"))
    var stabilityWindow: Int = 300

    func validate() throws {
        guard (1...10_000).contains(stabilityWindow) else {
            throw ValidationError(
                "--stability-window \(stabilityWindow) ms is outside 1 ... 10000; the engine's default is 300")
        }
    }

    func run() throws {
        print(
            "PlumScale settling benchmark: seed \(seed); HX711 model with datasheet noise, 1 kg cell at 1 mV/V, 3.3 "
                + "V, gain 128; d = 0.1 g; stable = display within 1 d over \(stabilityWindow) ms\n"
        )
        for rate in [HX711Rate.sps80, .sps10] {
            // The motion rule restarts on a gap longer than its window, so a window shorter
            // than two conversions can never see the load at rest.
            let period = 1000 / rate.samplesPerSecond
            guard Double(stabilityWindow) >= 2 * period else {
                print(
                    "\(Int(rate.samplesPerSecond)) SPS skipped: a \(stabilityWindow) ms window is shorter than two "
                        + "conversions (\(Int(2 * period)) ms), so nothing can be stable\n"
                )
                continue
            }
            let benchmark = try SettlingBenchmark(rate: rate, seed: seed)
            if let traceDirectory {
                for trace in benchmark.traces { try trace.write(directory: traceDirectory) }
            }
            print(benchmark.table(try benchmark.run(stabilityWindow: UInt64(stabilityWindow) * 1_000_000)))
            for filter in [FilterUnderTest.plumScale, .plumScaleLevelRate] {
                let resting = RestingNoiseBenchmark(rate: rate, seed: seed, filter: filter)
                print(resting.table(try resting.run()))
            }
        }
    }
}
