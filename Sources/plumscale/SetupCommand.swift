import ArgumentParser
import Foundation
import PlumDaemonConfig
import PlumProbe

/// `plumscale setup`: the first hour's hardware steps. Today the probe (`--probe`) and the doctor
/// (`--check`); writing the configuration, the calibration hand-off and the services come later
/// (docs/first-hour.md says what exists).
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Find the hardware (--probe), or check a configured system's sensors (--check).",
        discussion: """
            --probe lists the board, GPIO chips, I2C buses, ADS1115s at 0x48-0x4B (found by reading \
            their Config register's power-on value, never writing) and IIO devices, and watches an HX711's \
            DOUT on the README's pins (DT GPIO5, SCK GPIO6) or those given: the rate it falls at tells \
            10 from 80 SPS, and a DOUT stuck high or low or floating gets its likely causes and the wiring \
            table. No configuration needed. --check reads the configuration and checks each sensor in it: \
            exit code 0 when every one is ok, 3 otherwise. Stop plumscaled first: it holds the lines the \
            HX711 watch needs. --json prints one JSON object for scripts. The wizard that writes the \
            configuration is not there yet.
            """)

    @Flag(help: "List the hardware found (no configuration needed).")
    var probe = false

    @Flag(help: "Check every sensor in the configuration; exit code 3 when one has a problem.")
    var check = false

    @Flag(help: "One JSON object instead of text.")
    var json = false

    @Option(help: ArgumentHelp("The configuration file, for --check.", valueName: "file"))
    var config: String = PlumConfiguration.defaultPath

    @Option(help: ArgumentHelp("The HX711's GPIO chip (default: the Pi header's chip).", valueName: "chip"))
    var chip: String?

    @Option(help: ArgumentHelp("The HX711's DOUT (DT) line.", valueName: "line"))
    var dout: String = HX711Pins.readme.dout

    @Option(help: ArgumentHelp("The HX711's PD_SCK (SCK) line.", valueName: "line"))
    var sck: String = HX711Pins.readme.sck

    @Flag(help: "Do not watch an HX711 (--probe).")
    var noHX711 = false

    @Option(help: ArgumentHelp("How long to watch DOUT, in seconds.", valueName: "seconds"))
    var watch: Double = 1.5

    func validate() throws {
        guard probe != check else { throw ValidationError("give --probe or --check (the wizard is not there yet).") }
        guard watch.isFinite, watch >= 0.5, watch <= 60 else {
            throw ValidationError("--watch must be 0.5 to 60 seconds, not \(watch).")
        }
    }

    func run() throws {
        let window = Duration.milliseconds(Int64(watch * 1000))
        if probe {
            let pins = noHX711 ? nil : HX711Pins(chip: chip, dout: dout, sck: sck)
            let report = HardwareReport.probe(pins: pins, window: window)
            print(try json ? Self.json(report) : report.description)
            return
        }
        let configuration: PlumConfiguration
        do {
            configuration = try PlumConfiguration.load(path: config)
        } catch {
            printError("\(error)")
            throw ExitStatus.configuration
        }
        let checks = SetupDoctor(window: window).check(configuration.sensors)
        if json {
            print(try Self.json(SetupDoctor.Report(sensors: checks)))
        } else {
            print(checks.map(\.description).joined(separator: "\n"))
        }
        if !checks.allSatisfy(\.isOK) { throw ExitStatus.hardware }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
