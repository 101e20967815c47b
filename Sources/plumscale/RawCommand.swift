import ArgumentParser
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSensors
import PlumSettings
import PlumSimulation
import PlumSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale raw`: read raw samples straight from a driver, for bring-up without the daemon.
///
/// This is what a maker runs first after wiring, so its failures say in plain words which of
/// "wrong pin", "no chip" and "no permission" it is.
struct RawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "Read raw samples straight from a sensor's driver (bring-up, no daemon).",
        discussion: """
            Prints one line per sample, then a summary: the rate achieved and the samples \
            discarded, and why. With --simulate and no --config it reads a simulated HX711 \
            with plums coming and going.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Use the built-in simulated sensor (no hardware).")
    var simulate = false

    @Option(name: .long, help: ArgumentHelp("The sensor to read (default: the first in the file).", valueName: "name"))
    var sensor: String?

    @Option(name: .long, help: "How many samples to read.")
    var samples: Int = 20

    @Flag(name: .long, help: "One JSON object per line instead of text.")
    var json = false

    @Option(
        name: .long, help: ArgumentHelp("Also write the samples as a trace (time_s,sensor,raw).", valueName: "file"))
    var record: String?

    func validate() throws {
        guard samples > 0 else { throw ValidationError("--samples must be at least 1, not \(samples).") }
        if config == nil && !simulate {
            throw ValidationError(
                "Say where the sensor is: --config FILE (e.g. \(PlumConfiguration.defaultPath)), or --simulate to try "
                    + "it without hardware."
            )
        }
    }

    func run() throws {
        let configuration: PlumConfiguration
        do {
            configuration =
                try config.map { path throws(ConfigurationError) in try PlumConfiguration.load(path: path) }
                ?? PlumConfiguration.builtInSimulation
        } catch {
            printError("\(error)")
            throw ExitStatus.configuration
        }
        let chosen: SensorConfiguration
        do {
            chosen =
                try sensor.map { name throws(ConfigurationError) in try configuration.sensor(named: name) }
                ?? configuration.sensors[0]
        } catch {
            printError("\(error)")
            throw ExitStatus.configuration
        }

        // Before opening the sensor, so the driver's buffers are locked too.
        let samplerNotes = chosen.wiring.sampler.apply()
        let source: any SampleSource
        do {
            source = try SensorFactory.open(chosen)
        } catch {
            printError(Diagnosis.explain(error))
            throw Diagnosis.exitCode(for: error)
        }

        var recorder: TraceRecorder?
        if let record {
            do { recorder = try TraceRecorder(path: record) } catch {
                printError("\(error)")
                throw ExitCode.failure
            }
        }

        InterruptFlag.install()
        let output = RawOutput(json: json, info: source.info)
        output.header()
        for note in samplerNotes { output.note(note) }
        var read = 0
        var consecutiveNotReady = 0
        var failure: SensorError?
        var first: MonotonicInstant?
        var last: MonotonicInstant?
        while read < samples && !InterruptFlag.isSet {
            do {
                let sample = try source.next()
                consecutiveNotReady = 0
                first = first ?? sample.time
                last = sample.time
                read += 1
                output.sample(sample, since: first!)
                try recorder?.record(sample, sensor: chosen.name)
            } catch let error as SensorError {
                if case .notReady = error, read > 0, consecutiveNotReady < 2 {
                    // One missed conversion after good ones is worth counting, not stopping for.
                    consecutiveNotReady += 1
                    continue
                }
                failure = error
                break
            } catch {
                printError("\(error)")
                failure = nil
                break
            }
        }
        try? recorder?.close()

        let elapsed = first.flatMap { start in last.map { Double($0.nanoseconds(since: start)) / 1e9 } } ?? 0
        output.summary(samples: read, elapsed: elapsed, statistics: source.statistics)
        if let failure {
            printError(Diagnosis.explain(failure))
            throw Diagnosis.exitCode(for: failure)
        }
        if read == 0 && InterruptFlag.isSet { throw ExitStatus.interrupted }
    }
}

/// Ctrl-C during `raw` stops reading and still prints the summary.
enum InterruptFlag {
    private static let flag = Atomic<Bool>(false)

    static var isSet: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        signal(SIGINT) { _ in InterruptFlag.flag.store(true, ordering: .relaxed) }
    }
}

/// Writes one line to standard error (unbuffered, straight to file descriptor 2).
func printError(_ message: String) {
    let line = "plumscale: \(WireText.escaped(message))\n"
    Syscalls.writeStandardError(line)
}
