import PlumProbe
import PlumSettings

/// Step (f) of `plumscale setup`, beside the services: the scale's own display, drawn by
/// plumscale-display from the `[display]` table, offered when the probe found one (or when the
/// person names one), and its unit enabled as the other services' are.
extension SetupWizard {
    /// The display program's unit.
    static let displayUnit = "plumscale-display.service"

    /// Where a simulated SSD1306 leaves its frame when the answers name no file.
    static let simulatedFrameFile = "/run/plumscale-display/display.pbm"

    /// The kinds a person may name when the probe found nothing (or something else).
    static let namedDisplayKinds = ["ssd1306", "hd44780", "framebuffer"]

    /// A display the probe saw, in setup's terms: what it is and the `[display]` keys that
    /// would draw on it.
    struct ProbedDisplay: Equatable {
        /// Whether setup may offer it.
        enum Standing: Equatable {
            case usable
            /// The board's own video output: offered, after the panels.
            case boardVideo
            /// A kernel driver owns its I2C address (EBUSY): not offered.
            case kernelDriver
            /// A framebuffer with no device file: not offered.
            case noDeviceFile
        }

        /// "SSD1306-class OLED (likely) at 0x3D on i2c-1".
        var what: String
        var display: SetupConfiguration.Display
        var standing = Standing.usable
    }

    /// The displays in the probe's report: each I2C address that answered as a panel would (or
    /// that a kernel driver owns), then each framebuffer.
    static func probedDisplays(_ report: HardwareReport) -> [ProbedDisplay] {
        var probed: [ProbedDisplay] = []
        for finding in report.displays {
            guard let bus = finding.bus else { continue }
            let address = Int(finding.address)
            let place = "\(SetupConfiguration.Display.hex(address)) on i2c-\(bus)"
            let likely = I2CDisplayFinding.likely(at: finding.address) == .ssd1306Likely ? "ssd1306" : "hd44780"
            let display = SetupConfiguration.Display(
                kind: likely, bus: bus, address: address, size: SetupAnswers.displaySizes(likely).first)
            if let what = finding.likelyDevice {
                probed.append(ProbedDisplay(what: "\(what) at \(place)", display: display))
            } else if finding.state == .kernelDriver {
                probed.append(
                    ProbedDisplay(
                        what: "a kernel driver's device at \(place)", display: display, standing: .kernelDriver))
            }
        }
        for framebuffer in report.framebuffers {
            let size = framebuffer.width.flatMap { width in framebuffer.height.map { " \(width)x\($0)" } } ?? ""
            let standing: ProbedDisplay.Standing =
                !framebuffer.deviceExists ? .noDeviceFile : framebuffer.role == .boardVideo ? .boardVideo : .usable
            probed.append(
                ProbedDisplay(
                    what: framebuffer.device + (framebuffer.name.map { " [\($0)]" } ?? "") + size + ": "
                        + framebuffer.likelyDevice,
                    display: .init(kind: "framebuffer", device: framebuffer.device), standing: standing))
        }
        return probed
    }

    /// What setup offers of what the probe saw: the panels, then the board's own video output.
    static func displayCandidates(_ probed: [ProbedDisplay]) -> [ProbedDisplay] {
        probed.filter { $0.standing == .usable } + probed.filter { $0.standing == .boardVideo }
    }

    /// The display's `[display]` keys: from the answers (completed from the probe), or chosen
    /// by the person. Nil when plumscale-display is not installed, the answers have no
    /// `[display]` (or `enable = false`), or the person wants none.
    func setUpDisplay(_ report: HardwareReport) throws -> SetupConfiguration.Display? {
        guard system.installed("plumscale-display", variable: "PLUMSCALE_DISPLAY_BINARY") != nil else {
            say("display: plumscale-display is not installed; skipped (install it, then run setup again)")
            return nil
        }
        let probed = Self.probedDisplays(report)
        let display: SetupConfiguration.Display
        if let answers {
            guard let answer = answers.display, answer.enable else {
                say("display: skipped (no [display] with enable = true in the answers)")
                return nil
            }
            display = try Self.completeDisplay(answer, probed)
        } else {
            guard let chosen = chooseDisplay(probed) else {
                say("display: none")
                return nil
            }
            display = chosen
        }
        if let note = Self.displayNote(display, probed) { say("display: note: \(note)") }
        say("display: [display] \(display.summary)")
        return display
    }

    /// An answers `[display]` with what it left out: an I2C panel's bus and address from the
    /// probe's finding of that kind (else bus 1 and the kind's usual address: 0x3C for an SSD1306,
    /// 0x27 for a PCF8574 backpack), the kind's first size, a framebuffer's device from the
    /// probe, and a simulated SSD1306's frame file.
    static func completeDisplay(_ answer: SetupAnswers.Display, _ probed: [ProbedDisplay]) throws
        -> SetupConfiguration.Display
    {
        guard let kind = answer.kind else {
            throw SetupFailure(.configuration, "[display] has no kind; set kind = \"ssd1306\", \"hd44780\" or another")
        }
        var display = SetupConfiguration.Display(kind: kind, rotate: answer.rotate ?? 0)
        display.size = answer.size ?? SetupAnswers.displaySizes(kind).first
        let offered = displayCandidates(probed).map(\.display).filter { $0.kind == kind }
        switch kind {
        case "ssd1306", "hd44780":
            let found = offered.first { found in
                (answer.bus == nil || found.bus == answer.bus)
                    && (answer.address == nil || found.address == answer.address)
            }
            display.bus = answer.bus ?? found?.bus ?? 1
            display.address = answer.address ?? found?.address ?? (kind == "ssd1306" ? 0x3C : 0x27)
        case "framebuffer":
            guard let device = answer.device ?? offered.first?.device else {
                throw SetupFailure(
                    .configuration,
                    "[display] kind = \"framebuffer\" names no device, and the probe found no framebuffer with a "
                        + "device file; set device = \"/dev/fb1\" (ls /sys/class/graphics lists them)")
            }
            display.device = device
        default:
            display.frameFile = answer.frameFile ?? (kind == "simulated-ssd1306" ? simulatedFrameFile : nil)
        }
        return display
    }

    /// A warning when the probe did not see the display the configuration names: it is written
    /// all the same (the panel may be connected later), and plumscale-display says what it finds.
    static func displayNote(_ display: SetupConfiguration.Display, _ probed: [ProbedDisplay]) -> String? {
        if let bus = display.bus, let address = display.address {
            let place = "\(SetupConfiguration.Display.hex(address)) on i2c-\(bus)"
            switch probed.first(where: { $0.display.bus == bus && $0.display.address == address })?.standing {
            case .usable?:
                return nil
            case .kernelDriver?:
                return "a kernel driver owns \(place); plumscale-display cannot use it until the driver is "
                    + "unbound (or use kind = \"framebuffer\" on the driver's framebuffer)"
            default:
                return "nothing answered at \(place) when the probe looked; check the wiring, and that I2C is on "
                    + "(raspi-config)"
            }
        }
        if let device = display.device,
            !probed.contains(where: { $0.display.device == device && $0.standing != .noDeviceFile })
        {
            return "the probe found no framebuffer \(device); check that its driver is loaded (ls /sys/class/graphics)"
        }
        return nil
    }

    /// Asks which display to use: one the probe found, or one the person names.
    func chooseDisplay(_ probed: [ProbedDisplay]) -> SetupConfiguration.Display? {
        let found = Self.displayCandidates(probed)
        let kinds = TOMLReader.list(Self.namedDisplayKinds)
        let question: String
        if found.isEmpty {
            question = "No display found. Show the weight on one anyway? \(kinds) (Enter for none):"
        } else {
            say("Displays found:")
            for (index, candidate) in found.enumerated() { say("  \(index + 1). \(candidate.what)") }
            question = "Show the weight on a display? Its number, or \(kinds) to name another (Enter for none):"
        }
        while true {
            guard let reply = ask(question)?.lowercased(), !reply.isEmpty else { return nil }
            var display: SetupConfiguration.Display
            if let number = Int(reply), found.indices.contains(number - 1) {
                display = found[number - 1].display
            } else if Self.namedDisplayKinds.contains(reply) {
                display = namedDisplay(reply, probed)
            } else {
                say(
                    "  '\(reply)' is "
                        + (found.isEmpty ? "not \(kinds)" : "neither a number from 1 to \(found.count) nor \(kinds)"))
                continue
            }
            let sizes = SetupAnswers.displaySizes(display.kind)
            if !sizes.isEmpty {
                display.size = askChoice("Its size, \(TOMLReader.list(sizes)) [\(sizes[0])]:", sizes)
            }
            // A character LCD cannot turn its ROM's letters over; pixels can be drawn either way.
            if display.kind != "hd44780" {
                display.rotate =
                    ask("Is it mounted upside down (rotate = 180)? [y/N]:")?.lowercased().hasPrefix("y") == true
                    ? 180 : 0
            }
            return display
        }
    }

    /// A display of a kind the person named, its bus, address or device asked for.
    private func namedDisplay(_ kind: String, _ probed: [ProbedDisplay]) -> SetupConfiguration.Display {
        guard kind != "framebuffer" else {
            let usual = Self.displayCandidates(probed).compactMap(\.display.device).first ?? "/dev/fb1"
            while true {
                let reply = ask("Its framebuffer device [\(usual)]:") ?? ""
                if reply.isEmpty { return .init(kind: kind, device: usual) }
                if reply.hasPrefix("/") { return .init(kind: kind, device: reply) }
                say("  '\(reply)' is not a path; type such as /dev/fb1")
            }
        }
        var display = SetupConfiguration.Display(kind: kind)
        while display.bus == nil {
            let reply = ask("Its I2C bus, the N of /dev/i2c-N [1]:") ?? ""
            if reply.isEmpty {
                display.bus = 1
            } else if let bus = Int(reply), (0...255).contains(bus) {
                display.bus = bus
            } else {
                say("  '\(reply)' is not a bus number; type such as 1")
            }
        }
        let usual = kind == "ssd1306" ? 0x3C : 0x27
        while display.address == nil {
            let reply =
                ask("Its address, in hex as i2cdetect shows it [\(SetupConfiguration.Display.hex(usual))]:") ?? ""
            let digits = reply.lowercased().hasPrefix("0x") ? String(reply.dropFirst(2)) : reply
            if reply.isEmpty {
                display.address = usual
            } else if let address = Int(digits, radix: 16), (0x03...0x77).contains(address) {
                display.address = address
            } else {
                say("  '\(reply)' is not an I2C address from 03 to 77 in hex; type such as 3c or 0x27")
            }
        }
        return display
    }

    /// One of `choices`, the first when the reply is empty; asked again until it is one.
    private func askChoice(_ question: String, _ choices: [String]) -> String {
        while true {
            guard let reply = ask(question)?.lowercased(), !reply.isEmpty else { return choices[0] }
            if choices.contains(reply) { return reply }
            say("  '\(reply)' is not \(TOMLReader.list(choices))")
        }
    }
}
