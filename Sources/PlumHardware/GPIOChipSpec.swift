/// Which GPIO chip: a device path, a chip name, or the chip's label.
///
/// Labels are the portable choice on a Raspberry Pi: the header pins are on the chip labelled
/// `pinctrl-bcm2711` on a Pi 4 and `pinctrl-rp1` on a Pi 5, whose number depends on probe order
/// (gpiochip4 on early Pi 5 kernels, gpiochip0 on later ones).
public enum GPIOChipSpec: Hashable, Sendable, CustomStringConvertible {
    /// An absolute path such as `/dev/gpiochip0`.
    case path(String)
    /// A chip name such as `gpiochip4`, found in the device directory.
    case name(String)
    /// A chip label such as `pinctrl-rp1`, found by opening every chip.
    case label(String)

    /// Parses "/dev/gpiochip0" as a path, "gpiochip4" or "4" as a name, anything else as a label.
    /// - Throws: ``HardwareError/Code/invalidRequest`` for an empty text.
    public init(parsing text: String) throws(HardwareError) {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else {
            throw HardwareError(
                .invalidRequest, operation: "parsing GPIO chip", subject: "'\(text)'",
                detail: "empty",
                hint: "give a label such as pinctrl-bcm2711, a name such as gpiochip0, or a path")
        }
        if trimmed.hasPrefix("/") {
            self = .path(trimmed)
        } else if let number = UInt32(trimmed) {
            self = .name("gpiochip\(number)")
        } else if trimmed.hasPrefix("gpiochip"), UInt32(trimmed.dropFirst("gpiochip".count)) != nil {
            self = .name(trimmed)
        } else {
            self = .label(trimmed)
        }
    }

    public var description: String {
        switch self {
        case .path(let path): path
        case .name(let name): name
        case .label(let label): "chip labelled '\(label)'"
        }
    }
}
