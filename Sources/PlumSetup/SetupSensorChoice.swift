import PlumDaemonConfig
import PlumProbe

/// Step (b) of `plumscale setup`: which sensors the configuration gets, from the answers (with
/// what they leave out taken from the probe) or chosen among what the probe found.
extension SetupWizard {
    func chooseSensors(_ report: HardwareReport) throws -> SetupConfiguration {
        var plan = SetupConfiguration()
        if let answers {
            guard !answers.sensors.isEmpty else {
                throw SetupFailure(
                    .configuration, "the answers have no [[sensor]]; add one (Calibration/examples/setup-answers.toml)")
            }
            plan.sensors = try answers.sensors.map { try complete($0, report) }
            plan.socketGroup = answers.socketGroup
            plan.adminGroup = answers.adminGroup
            plan.cue = answers.cue
            plan.buttons = answers.buttons
        } else {
            plan.sensors = try offer(report)
            plan.socketGroup = ask("Group whose members may read the scale (socket_group) [plumscale]:")
                .map { $0.isEmpty ? "plumscale" : $0 }
            plan.adminGroup = ask("Group whose members may also tare and calibrate (admin_group) [plumscale-admin]:")
                .map { $0.isEmpty ? "plumscale-admin" : $0 }
            let chip = report.gpioChips.first { $0.role == .piHeader }?.label ?? "gpiochip0"
            if let line = ask("A buzzer for [cue]: its GPIO line, such as GPIO18 (Enter for none):"), !line.isEmpty {
                plan.cue = [.init(key: "chip", value: .string(chip)), .init(key: "line", value: .string(line))]
            }
            if let line = ask("A push button to tare, [[button]]: its GPIO line, such as GPIO27 (Enter for none):"),
                !line.isEmpty
            {
                plan.buttons = [
                    [
                        .init(key: "chip", value: .string(chip)), .init(key: "line", value: .string(line)),
                        .init(key: "bias", value: .string("pull-up")), .init(key: "active_low", value: .bool(true))
                    ]
                ]
            }
        }
        say("sensors: " + plan.sensors.map(Self.describe).joined(separator: "; "))
        return plan
    }

    /// An answers sensor with the chip and rate it left to the probe.
    func complete(_ sensor: SetupAnswers.Sensor, _ report: HardwareReport) throws -> SetupAnswers.Sensor {
        guard sensor.kind == .hx711 else { return sensor }
        var sensor = sensor
        let chip: String
        if let given = sensor.value("chip")?.text {
            chip = given
        } else {
            guard let header = report.gpioChips.first(where: { $0.role == .piHeader })?.label else {
                let chips = report.gpioChips.map(\.label)
                throw SetupFailure(
                    .configuration,
                    "[[sensor]] \"\(sensor.name)\": no chip given, and the probe found no Raspberry Pi header chip "
                        + "among \(chips.isEmpty ? "no GPIO chips" : chips.joined(separator: ", ")); "
                        + "set chip = \"...\" in the answers (gpiodetect lists the chips)")
            }
            chip = header
            sensor.keys.insert(.init(key: "chip", value: .string(header)), at: 0)
        }
        if sensor.value("rate") == nil {
            let dout = sensor.value("dout")?.text ?? HX711Pins.readme.dout
            let sck = sensor.value("sck")?.text ?? HX711Pins.readme.sck
            guard let found = report.hx711, found.pins == HX711Pins(chip: chip, dout: dout, sck: sck),
                let rate = found.verdict?.rate
            else {
                let seen = report.hx711?.description ?? report.hx711Skipped ?? "not watched"
                throw SetupFailure(
                    .configuration,
                    "[[sensor]] \"\(sensor.name)\": no rate given, and the probe could not measure it (\(seen)); "
                        + "set rate = 10 or 80 in the answers (the board's RATE pin decides it), or fix the wiring")
            }
            sensor.keys.append(.init(key: "rate", value: .int(rate.rawValue)))
        }
        for (key, line) in [("dout", HX711Pins.readme.dout), ("sck", HX711Pins.readme.sck)]
        where sensor.value(key) == nil {
            sensor.keys.append(.init(key: key, value: .string(line)))
        }
        return sensor
    }

    /// One sensor in words: "pan (hx711: chip pinctrl-bcm2711, dout GPIO5, …)".
    static func describe(_ sensor: SetupAnswers.Sensor) -> String {
        let keys = sensor.keys.filter { $0.key != "profile" }.map { "\($0.key) \($0.value.text ?? $0.value.toml)" }
        return "\(sensor.name) (\(sensor.kind.rawValue)" + (keys.isEmpty ? "" : ": " + keys.joined(separator: ", "))
            + ")"
    }

    /// A sensor the probe found, offered to the person.
    struct Candidate {
        var what: String
        var sensor: SetupAnswers.Sensor
    }

    /// What the probe found that PlumScale can read: an HX711 at its measured rate, each
    /// channel of each ADS1115, each IIO device of a kind PlumScale knows.
    static func candidates(_ report: HardwareReport, roots: ProbeRoots) -> [Candidate] {
        var found: [Candidate] = []
        if let hx711 = report.hx711, let chip = hx711.pins.chip, let rate = hx711.verdict?.rate {
            let keys: [SetupAnswers.Entry] = [
                .init(key: "chip", value: .string(chip)), .init(key: "dout", value: .string(hx711.pins.dout)),
                .init(key: "sck", value: .string(hx711.pins.sck)), .init(key: "rate", value: .int(rate.rawValue)),
                .init(key: "profile", value: .string("hx711-1kg-gain128"))
            ]
            found.append(
                Candidate(
                    what: "HX711 on \(chip) DT=\(hx711.pins.dout) SCK=\(hx711.pins.sck) at \(rate.rawValue) SPS",
                    sensor: .init(name: "pan", kind: .hx711, keys: keys)))
        }
        for chip in report.ads1115 where chip.state == .ads1115AtReset || chip.state == .answeredOtherValue {
            guard let bus = chip.bus else { continue }
            for channel in 0..<4 {
                let keys: [SetupAnswers.Entry] = [
                    .init(key: "bus", value: .int(bus)), .init(key: "address", value: .int(Int(chip.address))),
                    .init(key: "channel", value: .string("AIN\(channel)")),
                    .init(key: "profile", value: .string("fsr402-10k-3v3"))
                ]
                found.append(
                    Candidate(
                        what: "ADS1115 at 0x\(String(chip.address, radix: 16)) on i2c-\(bus), AIN\(channel) (an FSR)",
                        sensor: .init(name: "fsr\(found.count + 1)", kind: .ads1115, keys: keys)))
            }
        }
        for device in report.iio where ["hx711", "ads1015", "ads1115", "tla2024"].contains(device.name) {
            var keys: [SetupAnswers.Entry] = [.init(key: "device", value: .string(device.id))]
            if roots.iioDirectory != ProbeRoots().iioDirectory {
                keys.append(.init(key: "root", value: .string(roots.iioDirectory)))
            }
            if device.name == "hx711" { keys.append(.init(key: "profile", value: .string("iio-hx711-1kg"))) }
            found.append(
                Candidate(
                    what: "\(device.id) [\(device.name)] through the kernel's driver",
                    sensor: .init(name: "kernel-\(device.name)", kind: .iio, keys: keys)))
        }
        return found
    }

    /// Asks which of the candidates to use, and their names.
    func offer(_ report: HardwareReport) throws -> [SetupAnswers.Sensor] {
        let found = Self.candidates(report, roots: roots)
        guard !found.isEmpty else {
            throw SetupFailure(
                .configuration,
                "the probe found no sensor PlumScale can read (above); check the wiring against the README, "
                    + "or name the HX711's pins with --dout and --sck, then run setup again")
        }
        say("Found:")
        for (index, candidate) in found.enumerated() { say("  \(index + 1). \(candidate.what)") }
        while true {
            guard let reply = ask("Which to use? Their numbers, separated by spaces (such as 1 3):") else {
                throw SetupFailure(.refused, "no sensor chosen; nothing was written")
            }
            let numbers = reply.split(whereSeparator: { $0 == " " || $0 == "," }).map { Int($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil && (1...found.count).contains($0!) }) else {
                say("  '\(reply)' is not a list of numbers from 1 to \(found.count); type them such as: 1 3")
                continue
            }
            var chosen: [SetupAnswers.Sensor] = []
            for number in numbers.compactMap({ $0 }) {
                var sensor = found[number - 1].sensor
                while true {
                    guard let name = ask("A name for \(found[number - 1].what) [\(sensor.name)]:") else {
                        throw SetupFailure(.refused, "no name given; nothing was written")
                    }
                    let picked = name.isEmpty ? sensor.name : name
                    if !SensorConfiguration.isValidName(picked) {
                        say("  '\(picked)': use letters, digits, '-' and '_' (1 to 32 characters)")
                    } else if chosen.contains(where: { $0.name == picked }) {
                        say("  '\(picked)' is already taken; choose another name")
                    } else {
                        sensor.name = picked
                        break
                    }
                }
                chosen.append(sensor)
            }
            return chosen
        }
    }
}
