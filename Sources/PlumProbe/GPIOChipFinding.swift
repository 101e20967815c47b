package import PlumHardware

/// One GPIO chip the kernel offers, and what its label says it is.
package struct GPIOChipFinding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The kernel's name, such as `gpiochip0`.
    package var name: String
    package var path: String
    /// The driver's label, such as `pinctrl-bcm2711`: what a configuration should name.
    package var label: String
    package var lineCount: UInt32
    /// What the label is known to be.
    package var role: Role

    /// What a chip's label tells about it.
    package enum Role: String, Hashable, Sendable, Encodable {
        /// The 40-pin header's GPIOs (the README's wiring is on this chip).
        case piHeader = "pi-header"
        /// A Pi's other GPIOs (the firmware's expander: LEDs, power control); not on the header.
        case piOther = "pi-other"
        /// A simulated chip: the kernel's gpio-sim, or the test VM's in-kernel HX711 (hx711-sim).
        case simulated
        case other
    }

    enum CodingKeys: String, CodingKey {
        case name, path, label, role
        case lineCount = "line_count"
    }

    package init(_ info: GPIOChipInfo) {
        name = info.name
        path = info.path
        label = info.label
        lineCount = info.lineCount
        role = Self.role(ofLabel: info.label)
    }

    /// Classifies a chip label: `pinctrl-bcm2835` (Pi 1–3, Zero), `pinctrl-bcm2711` (Pi 4, 400,
    /// CM4) and `pinctrl-rp1` (Pi 5) drive the header; `raspberrypi-exp-gpio` and
    /// `pinctrl-bcm2712*` (the Pi 5's SoC GPIOs) do not; `gpio-sim…` (the kernel's simulator) and
    /// `hx711-sim` (the kernel suite's emulated HX711, Tests/kernel/hx711-sim) are simulations.
    package static func role(ofLabel label: String) -> Role {
        switch label {
        case "pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1": return .piHeader
        case "raspberrypi-exp-gpio": return .piOther
        default:
            if label.hasPrefix("pinctrl-bcm2712") || label.hasPrefix("brcmvirt-gpio") { return .piOther }
            if label.hasPrefix("gpio-sim") || label == "hx711-sim" { return .simulated }
            return .other
        }
    }

    /// Every chip in the roots' device directory, opened through libgpiod as `gpiodetect` does.
    package static func all(_ roots: ProbeRoots) -> [GPIOChipFinding] {
        GPIOChip.available(in: roots.deviceDirectory).map(GPIOChipFinding.init)
    }

    /// "gpiochip0 [pinctrl-bcm2711] 58 lines: the Pi's header".
    package var description: String {
        let what: String =
            switch role {
            case .piHeader: "the Pi's header"
            case .piOther: "the Pi's other GPIOs (not the header)"
            case .simulated: "a simulated chip"
            case .other: "unknown to PlumScale"
            }
        return "\(name) [\(label)] \(lineCount) lines: \(what)"
    }
}
