import Foundation
import PlumClient
import PlumDaemonConfig
import PlumProbe
import PlumProtocol
import PlumSettings
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale calibrate`'s steps, handed to the wizard by the CLI that owns them: setup
/// calibrates each sensor it wrote the same way a person does later.
package struct SetupCalibration: Sendable {
    /// Calibrates `sensor` with the answers' points (grams), waiting up to `wait` s for each;
    /// the last argument labels its lines. Returns whether the fit was saved.
    package var scripted: @Sendable (DaemonClient, String, [Double], Double, String) throws -> Bool
    /// Asks a person on the terminal. Returns whether the fit was saved.
    package var interactive: @Sendable (DaemonClient, String) throws -> Bool
    /// A failure of either in the CLI's words.
    package var describe: @Sendable (any Error) -> String

    package init(
        scripted: @escaping @Sendable (DaemonClient, String, [Double], Double, String) throws -> Bool,
        interactive: @escaping @Sendable (DaemonClient, String) throws -> Bool,
        describe: @escaping @Sendable (any Error) -> String
    ) {
        self.scripted = scripted
        self.interactive = interactive
        self.describe = describe
    }
}

/// `plumscale setup`: from a probe of the hardware to a calibrated scale with its services, each
/// step printing one line of what it did. Interactive, or every answer from `--answers`.
package struct SetupWizard {
    var configPath: String
    var credentialsDirectory: String
    /// `--socket`, else `$PLUMSCALE_SOCKET`, else the configuration's, else the default.
    var socket: String?
    /// Seconds to wait for the daemon after its restart.
    var daemonWait: Double
    /// The HX711 pins the interactive probe watches; nil: none.
    var probePins: HX711Pins?
    var window: Duration
    var roots: ProbeRoots
    var system: SetupSystem
    /// Nil: ask on the terminal.
    var answers: SetupAnswers?

    /// The calibration of one sensor through the daemon: `plumscale calibrate`'s own steps,
    /// which the CLI hands in. Nil: each sensor is left to `plumscale calibrate` later.
    var calibration: SetupCalibration?

    var interactive: Bool { answers == nil }

    package init(
        configPath: String, credentialsDirectory: String, socket: String?, daemonWait: Double,
        probePins: HX711Pins?, window: Duration, roots: ProbeRoots, system: SetupSystem, answers: SetupAnswers?,
        calibration: SetupCalibration? = nil
    ) {
        self.configPath = configPath
        self.credentialsDirectory = credentialsDirectory
        self.socket = socket
        self.daemonWait = daemonWait
        self.probePins = probePins
        self.window = window
        self.roots = roots
        self.system = system
        self.answers = answers
        self.calibration = calibration
    }

    package func run() throws {
        let report = probe()
        var plan = try chooseSensors(report)
        let written = try writeConfiguration(plan, ownPrevious: nil)
        try restartDaemon(written.configuration)
        try calibrate(written.configuration)
        let services = try setUpServices(&plan, report: report)
        if plan.mqtt != nil || plan.webListen != nil || plan.display != nil {
            _ = try writeConfiguration(plan, ownPrevious: written.text)
        }
        try startServices(services)
        tellWhereToLook(plan, services: services)
    }

    // MARK: (a) probe

    /// Probes the hardware and shows what was found. The HX711 is watched on the pins the
    /// answers name (or the options', interactively); without an HX711 in the answers no GPIO
    /// line is touched.
    func probe() -> HardwareReport {
        var pins = probePins
        if let answers {
            pins = answers.sensors.first { $0.kind == .hx711 }.map { sensor in
                HX711Pins(
                    chip: sensor.value("chip")?.text, dout: sensor.value("dout")?.text ?? HX711Pins.readme.dout,
                    sck: sensor.value("sck")?.text ?? HX711Pins.readme.sck)
            }
        }
        // A running plumscaled holds the HX711's lines (the packaged example names the README's):
        // stopped, with its socket so that no client wakes it, until the new configuration is in.
        if pins != nil, system.unitExists("plumscaled.service") {
            do {
                _ = try system.systemctl(["stop", "plumscaled.socket", "plumscaled.service"])
                say("probe: stopped plumscaled while the HX711's lines are watched; it starts again below")
            } catch {
                say("probe: could not stop plumscaled (\(error)); the HX711 watch may find its lines busy")
            }
        }
        let report = HardwareReport.probe(roots, pins: pins, window: window)
        say("probe: \(Self.summary(report))")
        if interactive { print(report.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")) }
        return report
    }

    static func summary(_ report: HardwareReport) -> String {
        let header = report.gpioChips.first { $0.role == .piHeader }?.label
        var parts = [report.board.model ?? "not a Raspberry Pi (no device-tree model)"]
        parts.append("GPIO header chip \(header ?? "none")")
        parts.append("\(report.i2cBuses.count) I2C bus\(report.i2cBuses.count == 1 ? "" : "es")")
        parts.append(
            "ADS1115 at "
                + (report.ads1115.isEmpty ? "none" : report.ads1115.map(\.description).joined(separator: ", ")))
        parts.append(
            "IIO " + (report.iio.isEmpty ? "none" : report.iio.map { "\($0.id) [\($0.name)]" }.joined(separator: ", ")))
        var displays: [String] = []
        for finding in report.displays {
            guard let what = finding.likelyDevice, let bus = finding.bus else { continue }
            displays.append("i2c-\(bus) \(SetupConfiguration.Display.hex(Int(finding.address))) (\(what))")
        }
        for framebuffer in report.framebuffers {
            displays.append(framebuffer.device + (framebuffer.name.map { " [\($0)]" } ?? ""))
        }
        parts.append("display " + (displays.isEmpty ? "none" : displays.joined(separator: ", ")))
        if let hx711 = report.hx711 {
            parts.append(hx711.description.split(separator: "\n").first.map(String.init) ?? "")
        } else {
            parts.append("HX711 not watched (\(report.hx711Skipped ?? ""))")
        }
        return parts.joined(separator: "; ")
    }

    // MARK: (c) the configuration

    /// Renders, checks and writes the configuration; the loaded result and the text.
    /// - Parameter ownPrevious: the text setup itself wrote earlier in this run, which it may
    ///   replace without asking; any other differing file needs a yes or `overwrite = true`.
    func writeConfiguration(_ plan: SetupConfiguration, ownPrevious: String?) throws
        -> (configuration: PlumConfiguration, text: String)
    {
        let file = SetupFile(path: configPath)
        let existing: String?
        do { existing = try file.existing() } catch { throw SetupFailure(.service, error.description) }
        let text = plan.render(keeping: existing)
        let configuration: PlumConfiguration
        do { configuration = try SetupConfiguration.validate(text, file: configPath) } catch {
            throw SetupFailure(
                .configuration,
                "the configuration setup made does not load, so nothing was written: \(error). "
                    + (interactive ? "Run setup again and choose differently." : "Fix that value in the answers."))
        }
        if existing == text {
            say("configuration: \(configPath) is already as setup would write it; left alone")
            return (configuration, text)
        }
        if let existing, existing != ownPrevious {
            print(SetupFile.diff(existing, text, oldName: configPath, newName: configPath + " (from setup)"))
            if let answers {
                guard answers.overwrite else {
                    throw SetupFailure(
                        .refused,
                        "\(configPath) differs from what setup would write (the diff above); nothing was written. "
                            + "Add overwrite = true to the answers to replace it, or pass --config NEW-FILE")
                }
            } else {
                guard
                    ask("Replace \(configPath) with this? (the - lines go, the + lines come) [y/N]")?
                        .lowercased().hasPrefix("y") == true
                else {
                    throw SetupFailure(.refused, "\(configPath) was left as it was; nothing was written")
                }
            }
        }
        do { try file.write(text, mode: 0o644) } catch { throw SetupFailure(.service, error.description) }
        let names = configuration.sensors.map(\.name).joined(separator: ", ")
        say("configuration: wrote \(configPath) (sensors \(names)), checked with the daemon's own loader")
        return (configuration, text)
    }

    // MARK: (d) the daemon

    /// Where the daemon listens: `--socket`, `$PLUMSCALE_SOCKET`, the configuration's, else
    /// the client's default.
    func socketPath(_ configuration: PlumConfiguration) -> String? {
        socket ?? system.environment["PLUMSCALE_SOCKET"] ?? configuration.daemon.socket
    }

    /// Restarts plumscaled (or says how to), then waits for it to answer with every sensor.
    func restartDaemon(_ configuration: PlumConfiguration) throws {
        let unit = "plumscaled.service"
        if system.unitExists(unit) {
            if system.unitExists("plumscaled.socket") { _ = try system.systemctl(["start", "plumscaled.socket"]) }
            _ = try system.systemctl(["restart", unit])
            say("daemon: restarted \(unit); waiting up to \(Self.seconds(daemonWait)) s for it to answer")
        } else {
            let why =
                system.useSystemd ? "\(unit) is not installed" : "systemd not used: --no-systemd, or it is not running"
            say(
                "daemon: not restarted by setup (\(why)); restart it yourself: sudo systemctl restart plumscaled, "
                    + "or plumscaled --config \(configPath). "
                    + "Waiting up to \(Self.seconds(daemonWait)) s for it to answer"
            )
        }
        let wanted = Set(configuration.sensors.map(\.name))
        let deadline = Self.monotonicSeconds() + daemonWait
        var last = "no answer yet."
        while true {
            do {
                let client = try DaemonClient(socketPath: socketPath(configuration), timeout: .seconds(2))
                let have = Set(try client.devices(timeout: .seconds(2)).map(\.sensor))
                if wanted.isSubset(of: have) {
                    say("daemon: answering with sensors \(wanted.sorted().joined(separator: ", "))")
                    return
                }
                last =
                    "it has sensors \(have.sorted().joined(separator: ", ")), not yet "
                    + wanted.subtracting(have).sorted().joined(separator: ", ")
            } catch {
                last = "\(error)".hasSuffix(".") ? "\(error)" : "\(error)."
            }
            guard Self.monotonicSeconds() < deadline else {
                throw SetupFailure(
                    .daemon,
                    "plumscaled did not answer within \(Self.seconds(daemonWait)) s: \(last) "
                        + "See journalctl -u plumscaled "
                        + "(or run plumscaled --config \(configPath) in a terminal), then run setup again")
            }
            usleep(200_000)  // a person's program, not a test: poll the socket five times a second
        }
    }

    /// "30", "0.5": seconds as the option was given.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    // MARK: (e) calibration

    /// Runs `plumscale calibrate`'s wizard for each sensor: scripted from the answers' points,
    /// or interactively when the person wants to.
    func calibrate(_ configuration: PlumConfiguration) throws {
        for sensor in configuration.sensors.map(\.name) {
            let connection: DaemonClient
            do { connection = try DaemonClient(socketPath: socketPath(configuration)) } catch {
                throw SetupFailure(.daemon, "calibrate \(sensor): \(error)")
            }
            guard let calibration else {
                say("calibrate \(sensor): later, with plumscale calibrate --sensor \(sensor)")
                continue
            }
            if let answers {
                guard let script = answers.calibrations.first(where: { $0.sensor == sensor }) else {
                    say(
                        "calibrate \(sensor): skipped (no [[calibration]] for it in the answers); "
                            + "later: plumscale calibrate --sensor \(sensor)")
                    continue
                }
                let saved: Bool
                do {
                    saved = try calibration.scripted(
                        connection, sensor, script.points, script.wait, "calibrate \(sensor)")
                } catch {
                    throw SetupFailure(.refused, "calibrate \(sensor): \(calibration.describe(error))")
                }
                guard saved else { throw SetupFailure(.refused, "calibrate \(sensor): not saved") }
                say("calibrate \(sensor): saved")
            } else {
                guard ask("Calibrate \(sensor) now with known weights? [Y/n]")?.lowercased().hasPrefix("n") != true
                else {
                    say("calibrate \(sensor): skipped; later: plumscale calibrate --sensor \(sensor)")
                    continue
                }
                var saved = false
                do { saved = try calibration.interactive(connection, sensor) } catch {
                    say("calibrate \(sensor): \(calibration.describe(error))")
                }
                say(
                    "calibrate \(sensor): "
                        + (saved ? "saved" : "not saved; later: plumscale calibrate --sensor \(sensor)"))
            }
        }
    }

    // MARK: terminal

    /// One line of what a step did, on standard output.
    func say(_ line: String) {
        // Escaped as everything the CLI prints: the probe's names come from sysfs and the chips.
        print(WireText.escaped(line))
        fflush(nil)
    }

    /// A question on standard error, its answer from standard input (trimmed); nil at its end.
    func ask(_ question: String) -> String? {
        fflush(nil)
        let line = question + " "
        Syscalls.writeStandardError(line)
        return readLine(strippingNewline: true).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

extension AnswerValue {
    /// A string's text, or a number as text (a GPIO line given as an offset).
    var text: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }
}

extension SetupWizard {
    /// Seconds on the monotonic clock, for deadlines a clock step cannot move.
    static func monotonicSeconds() -> Double { Double(SystemMonotonicClock().now().nanoseconds) / 1e9 }
}

extension SetupServer {
    static func monotonicSeconds() -> Double { SetupWizard.monotonicSeconds() }
}
