import ArgumentParser
import Foundation
import PlumClient
import PlumDaemonConfig
import PlumProbe
import PlumSetup

/// `plumscale setup`: the first hour's wizard (``SetupWizard``), interactive or from
/// `--answers`; `--probe` lists the hardware and `--check` is the doctor of a configured system.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set the scale up (a wizard, or --answers FILE), find the hardware (--probe), or check it (--check).",
        discussion: """
            With neither --probe nor --check: the wizard, as root. It probes the hardware, lets you \
            choose the sensors, writes /etc/plumscale/plumscale.toml (commented, checked with the \
            daemon's loader first, atomically, never replacing a different file without showing the \
            diff and getting a yes), restarts plumscaled and waits for it, runs the calibration wizard \
            for each sensor, sets up plumscale-mqtt and plumscale-web when they are installed (their \
            passwords in /etc/plumscale/credentials, mode 0600), and prints the page's URL and the \
            Home Assistant device name. --answers FILE gives every answer for scripts \
            (Calibration/examples/setup-answers.toml; docs/cli.md describes the format).

            --probe lists the board, GPIO chips, I2C buses, ADS1115s at 0x48-0x4B (found by reading \
            their Config register's power-on value, never writing) and IIO devices, and watches an HX711's \
            DOUT on the README's pins (DT GPIO5, SCK GPIO6) or those given: the rate it falls at tells \
            10 from 80 SPS, and a DOUT stuck high or low or floating gets its likely causes and the wiring \
            table. No configuration needed. --check reads the configuration and checks each sensor in it: \
            exit code 0 when every one is ok, 3 otherwise. Stop plumscaled first: it holds the lines the \
            HX711 watch needs. --json prints one JSON object for scripts.
            """)

    @Flag(help: "List the hardware found (no configuration needed).")
    var probe = false

    @Flag(help: "Check every sensor in the configuration; exit code 3 when one has a problem.")
    var check = false

    @Flag(
        help: ArgumentHelp(
            "Answer one request of the web page's first run: a line of JSON on standard input "
                + "(plumscale-setup.socket runs this per connection; docs/web.md)."))
    var serve = false

    @Option(help: ArgumentHelp("--serve: besides root, the group that may ask.", valueName: "group"))
    var adminGroup: String = "plumscale-setup"

    @Flag(
        help: ArgumentHelp(
            "Let the web page set this scale up again: one apply within an hour (as root; the page's "
                + "setup is otherwise for the first run)."))
    var allowWeb = false

    @Flag(help: "One JSON object instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp("The configuration file: the one the wizard writes, or --check reads.", valueName: "file"))
    var config: String = PlumConfiguration.defaultPath

    @Option(help: ArgumentHelp("Every answer of the wizard, for scripts (docs/cli.md).", valueName: "file"))
    var answers: String?

    @Option(help: ArgumentHelp("Where the services' passwords go.", valueName: "directory"))
    var credentialsDir: String = SetupCommand.defaultCredentialsDirectory

    @Flag(help: "Do not run systemctl: print the commands instead.")
    var noSystemd = false

    @Option(help: ArgumentHelp("The daemon's socket, to wait for and calibrate through.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("How long to wait for the daemon after its restart, in seconds.", valueName: "seconds"))
    var daemonWait: Double = 30

    @Option(help: .hidden)
    var probeRoot: String?

    static let defaultCredentialsDirectory = "/etc/plumscale/credentials"

    /// Where the probe looks: the system's, or (`--probe-root`, for tests) a fake tree laid out as
    /// ``ProbeRoots/init(under:)`` describes.
    var roots: ProbeRoots { probeRoot.map { ProbeRoots(under: $0) } ?? ProbeRoots() }

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
        guard !(probe && check) else { throw ValidationError("give --probe or --check, not both.") }
        if serve, probe || check || answers != nil {
            throw ValidationError("--serve answers requests on its own: leave out --probe, --check and --answers.")
        }
        if allowWeb, serve || probe || check || answers != nil {
            throw ValidationError("--allow-web only leaves the page its leave: leave out the other modes.")
        }
        if probe || check, answers != nil {
            throw ValidationError("--answers is for the wizard: leave out --probe and --check.")
        }
        guard daemonWait.isFinite, daemonWait > 0, daemonWait <= 3600 else {
            throw ValidationError("--daemon-wait must be more than 0 and at most 3600 seconds, not \(daemonWait).")
        }
        guard watch.isFinite, watch >= 0.5, watch <= 60 else {
            throw ValidationError("--watch must be 0.5 to 60 seconds, not \(watch).")
        }
    }

    func run() throws {
        let window = Duration.milliseconds(Int64(watch * 1000))
        if serve {
            let wizard = SetupWizard(
                configPath: config, credentialsDirectory: credentialsDir, socket: socket, daemonWait: daemonWait,
                probePins: nil, window: window, roots: roots, system: SetupSystem(noSystemd: noSystemd), answers: nil,
                calibration: Self.calibration)
            let status = SetupServer(wizard: wizard, adminGroup: adminGroup).serve()
            if status != 0 { throw ExitCode(status) }
            return
        }
        if allowWeb { return try allowWebSetup() }
        if !probe && !check { return try runWizard(window: window) }
        if probe {
            let pins = noHX711 ? nil : HX711Pins(chip: chip, dout: dout, sck: sck)
            let report = HardwareReport.probe(roots, pins: pins, window: window)
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
        let checks = SetupDoctor(window: window, roots: roots).check(configuration.sensors)
        if json {
            print(try Self.json(SetupDoctor.Report(sensors: checks)))
        } else {
            print(checks.map(\.description).joined(separator: "\n"))
        }
        if !checks.allSatisfy(\.isOK) { throw ExitStatus.hardware }
    }

    /// `plumscale calibrate`'s steps, for the wizard's calibration of each sensor it wrote.
    static let calibration = SetupCalibration(
        scripted: { connection, sensor, points, wait, label in
            try Wizard(connection: connection, sensor: sensor).scripted(points, save: true, wait: wait, label: label)
        },
        interactive: { connection, sensor in try Wizard(connection: connection, sensor: sensor).interactive() },
        describe: { error in CommandError(error).message })

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `--allow-web`: root's leave for the page to set a set-up scale up again (``WebSetupPermit``).
    private func allowWebSetup() throws {
        if geteuid() != 0, config == PlumConfiguration.defaultPath {
            printError(
                "you are not root: the leave is a file in /etc/plumscale that only root may write, so run "
                    + "sudo plumscale setup --allow-web")
            throw ExitCode.validationFailure
        }
        let permit = WebSetupPermit(configPath: config)
        do { try permit.grant() } catch {
            printError(error.description)
            throw ExitStatus.configuration
        }
        let until = Date(timeIntervalSinceNow: WebSetupPermit.lifetime)
        print(
            "The web page may set this scale up again, once, until \(until.formatted(date: .omitted, time: .shortened)) "
                + "(\(permit.path); delete it to take the leave back).")
    }

    /// The wizard: as root, unless the configuration it writes is elsewhere.
    private func runWizard(window: Duration) throws {
        if geteuid() != 0, config == PlumConfiguration.defaultPath {
            printError(
                "you are not root: setup writes \(config) and \(credentialsDir) and restarts services, so run "
                    + "sudo plumscale setup. To write files of your own instead, pass --config FILE and "
                    + "--credentials-dir DIR (and --no-systemd)")
            throw ExitCode.validationFailure
        }
        var loaded: SetupAnswers?
        if let answers {
            do { loaded = try SetupAnswers.load(path: answers) } catch {
                printError("\(error)")
                throw ExitStatus.configuration
            }
        }
        let wizard = SetupWizard(
            configPath: config, credentialsDirectory: credentialsDir, socket: socket, daemonWait: daemonWait,
            probePins: noHX711 ? nil : HX711Pins(chip: chip, dout: dout, sck: sck), window: window,
            roots: roots, system: SetupSystem(noSystemd: noSystemd), answers: loaded, calibration: Self.calibration)
        do { try wizard.run() } catch let failure as SetupFailure {
            printError(failure.message)
            switch failure.kind {
            case .configuration, .service: throw ExitStatus.configuration
            case .refused: throw ExitStatus.refused
            case .daemon: throw ExitStatus.noDaemon
            case .usage: throw ExitCode.validationFailure
            }
        }
    }
}
