package import PlumDrivers
package import PlumHardware

/// A snapshot of one sampler, for `?DEVICES`, status lines and the watchdog.
package struct SamplerStatus: Hashable, Sendable {
    package var name: String
    package var info: SourceInfo?
    package var state: SensorState
    /// The driver's running totals (published, discarded by reason, not-ready, saturated).
    package var statistics: DriverStatistics
    /// Samples achieved per second over the last few seconds.
    package var achievedRate: Double
    /// Samples the consumer had not taken when the buffer was full (the oldest are dropped).
    package var droppedByBuffer: UInt64
    /// When the sampler thread last made progress (a sample, an error, a retry tick).
    package var lastProgress: MonotonicInstant
    /// Faults seen since start.
    package var faults: UInt64
    /// The last fault or not-ready state and its reason, kept after the sensor recovers: what
    /// went wrong an hour ago is still known when the sensor is fine again. Nil when none yet.
    package var lastFault: String? = nil
    /// When ``lastFault`` began, wall-clock ISO 8601 UTC: for a person reading the status, who
    /// compares it with other clocks (the kitchen's, a log's); nil when none yet.
    package var lastFaultTime: String? = nil
}
