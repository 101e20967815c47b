/// What the kernel says about one GPIO chip.
///
/// Mirrors `struct gpiochip_info` (name, label, lines) as `gpiodetect` prints it, plus the path
/// the chip was opened at.
public struct GPIOChipInfo: Hashable, Sendable, CustomStringConvertible {
    /// The device path, such as `/dev/gpiochip0`.
    public var path: String
    /// The kernel's name, such as `gpiochip0`.
    public var name: String
    /// The driver's label, such as `pinctrl-bcm2711`.
    public var label: String
    public var lineCount: UInt32

    public init(path: String, name: String, label: String, lineCount: UInt32) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }

    /// "gpiochip0 [pinctrl-bcm2711] 58 lines", as `gpiodetect` prints it.
    public var description: String { "\(name) [\(label)] \(lineCount) lines" }
}
