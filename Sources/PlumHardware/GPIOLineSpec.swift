/// Which line on a chip: an offset ("5") or a line name from the device tree ("GPIO5").
///
/// On a Raspberry Pi the line names are the BCM numbers ("GPIO5" is physical pin 29), so a
/// name survives a move between a Pi 4 (`pinctrl-bcm2711`) and a Pi 5 (`pinctrl-rp1`), where
/// the offsets of the header pins differ.
public enum GPIOLineSpec: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    case offset(UInt32)
    case name(String)

    /// The kernel's `GPIO_MAX_NAME_SIZE` less the terminating NUL: longer names never match.
    public static let maximumNameLength = 31

    public init(integerLiteral value: UInt32) { self = .offset(value) }

    /// Parses "5" as an offset and anything else that is a valid line name ("GPIO5") as a name.
    /// - Throws: ``HardwareError/Code/invalidRequest`` for an empty text, a number that is not
    ///   a valid offset, or a name longer than the kernel allows.
    public init(parsing text: String) throws(HardwareError) {
        let trimmed = text.trimmingWhitespace
        func invalid(_ detail: String, _ hint: String) -> HardwareError {
            HardwareError(
                .invalidRequest, operation: "parsing GPIO line", subject: "'\(text)'",
                detail: detail, hint: hint)
        }
        guard !trimmed.isEmpty else {
            throw invalid("empty", "give a line offset such as 5 or a line name such as GPIO5")
        }
        if let first = trimmed.unicodeScalars.first, "0123456789+-".unicodeScalars.contains(first) {
            guard let offset = UInt32(trimmed) else {
                throw invalid(
                    "not a line offset",
                    "an offset is a whole number from 0 (gpioinfo lists the lines)")
            }
            self = .offset(offset)
            return
        }
        guard trimmed.utf8.count <= Self.maximumNameLength else {
            throw invalid(
                "line name longer than \(Self.maximumNameLength) bytes",
                "use the name gpioinfo shows, such as GPIO5")
        }
        self = .name(trimmed)
    }

    /// "5" or "GPIO5": the text ``init(parsing:)`` reads back.
    public var description: String {
        switch self {
        case .offset(let offset): String(offset)
        case .name(let name): name
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation needed).
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
