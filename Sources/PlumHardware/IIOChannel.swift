/// One voltage input channel of an IIO device: single-ended ("voltage0") or differential
/// ("voltage0-voltage1").
///
/// Mirrors the channel part of the sysfs attribute names in the kernel's IIO ABI
/// (Documentation/ABI/testing/sysfs-bus-iio: `in_voltageY_raw`, `in_voltageY-voltageZ_raw`).
public struct IIOChannel: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The positive input, Y in `in_voltageY_raw`.
    public var index: Int
    /// The negative input of a differential channel, Z in `in_voltageY-voltageZ_raw`.
    public var negativeIndex: Int?

    public init(_ index: Int, minus negativeIndex: Int? = nil) {
        self.index = index
        self.negativeIndex = negativeIndex
    }

    /// Parses "0", "voltage0", "0-1" or "voltage0-voltage1".
    /// - Throws: ``HardwareError/Code/invalidRequest`` naming the text.
    public init(parsing text: String) throws(HardwareError) {
        let trimmed = text.trimmingWhitespace
        guard
            let channel = IIOChannel(attributeStem: trimmed)
                ?? IIOChannel(
                    attributeStem: trimmed.split(separator: "-", omittingEmptySubsequences: false)
                        .map { "voltage" + $0 }.joined(separator: "-"))
        else {
            throw HardwareError(
                .invalidRequest, operation: "parsing IIO channel", subject: "'\(text)'",
                detail: "not a voltage channel",
                hint: "give 0, voltage0 or voltage0-voltage1 (ls /sys/bus/iio/devices/iio:device0 lists them)")
        }
        self = channel
    }

    /// Reads "voltage0" or "voltage0-voltage1", the middle of an attribute name.
    init?(attributeStem: String) {
        let parts = attributeStem.split(separator: "-", omittingEmptySubsequences: false)
        func index(_ part: Substring) -> Int? {
            guard part.hasPrefix("voltage"), let value = Int(part.dropFirst("voltage".count)),
                value >= 0, part.dropFirst("voltage".count).allSatisfy(\.isASCIIDigit)
            else { return nil }
            return value
        }
        switch parts.count {
        case 1:
            guard let positive = index(parts[0]) else { return nil }
            self.init(positive)
        case 2:
            guard let positive = index(parts[0]), let negative = index(parts[1]) else { return nil }
            self.init(positive, minus: negative)
        default:
            return nil
        }
    }

    /// "voltage0" or "voltage0-voltage1".
    public var description: String {
        negativeIndex.map { "voltage\(index)-voltage\($0)" } ?? "voltage\(index)"
    }

    /// "in_voltage0": the prefix of this channel's own attributes.
    var attributePrefix: String { "in_" + description }

    public static func < (a: Self, b: Self) -> Bool {
        (a.index, a.negativeIndex ?? -1) < (b.index, b.negativeIndex ?? -1)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
