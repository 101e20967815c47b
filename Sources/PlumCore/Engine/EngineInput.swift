/// One sample as the engine sees it: a signal, a monotonic time and the ADC's range flags.
///
/// The daemon maps each driver sample onto this value: `signal` is the raw count for a load
/// cell and the FSR's conductance in microsiemens for an FSR; `time` is the monotonic clock in
/// nanoseconds. The engine takes all of its time from here, so it never reads a clock itself.
public struct EngineInput: Hashable, Sendable {
    /// Facts the ADC reported about the conversion.
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The code is pinned at the top of the ADC's range: the load is not measurable.
        public static let overRange = Flags(rawValue: 1 << 0)
        /// The code is pinned at the bottom of the ADC's range.
        public static let underRange = Flags(rawValue: 1 << 1)
    }

    /// Counts (load cell) or microsiemens (FSR).
    public var signal: Double
    /// Monotonic time in nanoseconds.
    public var time: UInt64
    public var flags: Flags

    public init(signal: Double, time: UInt64, flags: Flags = []) {
        self.signal = signal
        self.time = time
        self.flags = flags
    }
}
