public import PlumDrivers
public import PlumHardware

/// A snapshot of one sampler, for `?DEVICES`, status lines and the watchdog.
public struct SamplerStatus: Hashable, Sendable {
    public var name: String
    public var info: SourceInfo?
    public var state: SensorState
    /// The driver's running totals (published, discarded by reason, not-ready, saturated).
    public var statistics: DriverStatistics
    /// Samples achieved per second over the last few seconds.
    public var achievedRate: Double
    /// Samples the consumer had not taken when the buffer was full (the oldest are dropped).
    public var droppedByBuffer: UInt64
    /// When the sampler thread last made progress (a sample, an error, a retry tick).
    public var lastProgress: MonotonicInstant
    /// Faults seen since start.
    public var faults: UInt64
}
