/// The compact binary reading for constrained clients: a fixed 10-byte frame, little-endian,
/// the size of the Dust app's gesture message.
///
/// | byte | field |
/// |---|---|
/// | 0 | sensor index (the order of `?DEVICES`) |
/// | 1 | flags, see ``Flags`` |
/// | 2–5 | net grams, IEEE 754 float32, little-endian |
/// | 6–9 | raw ADC code, int32, little-endian |
public struct BinaryFrame: Hashable, Sendable {
    public static let size = 10

    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let stable = Flags(rawValue: 1 << 0)
        public static let overload = Flags(rawValue: 1 << 1)
        public static let underload = Flags(rawValue: 1 << 2)
        public static let zeroCentre = Flags(rawValue: 1 << 3)
        public static let tared = Flags(rawValue: 1 << 4)
        public static let heaviest = Flags(rawValue: 1 << 5)
        public static let calibrated = Flags(rawValue: 1 << 6)
        public static let cue = Flags(rawValue: 1 << 7)
    }

    public var sensorIndex: UInt8
    public var flags: Flags
    public var grams: Float
    public var raw: Int32

    public init(sensorIndex: UInt8, flags: Flags, grams: Float, raw: Int32) {
        self.sensorIndex = sensorIndex
        self.flags = flags
        self.grams = grams
        self.raw = raw
    }

    /// Appends the frame's 10 bytes to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        bytes.append(sensorIndex)
        bytes.append(flags.rawValue)
        let gramBits = grams.bitPattern.littleEndian
        let rawBits = UInt32(bitPattern: raw).littleEndian
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: gramBits >> UInt32(shift)))
        }
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: rawBits >> UInt32(shift)))
        }
    }

    /// Reads a frame from exactly 10 bytes; nil for any other length.
    public init?<Bytes: Collection>(decoding bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == Self.size else { return nil }
        let b = Array(bytes)
        func word(_ at: Int) -> UInt32 {
            UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
        }
        self.init(
            sensorIndex: b[0], flags: Flags(rawValue: b[1]),
            grams: Float(bitPattern: word(2)), raw: Int32(bitPattern: word(6)))
    }
}
