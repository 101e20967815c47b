public import PlumHardware

/// One conversion result the ADS1115 driver trusts: taken with `config`, and started after
/// that configuration was in place.
public struct ADS1115Conversion: Hashable, Sendable {
    /// The Conversion register, two's complement.
    public var code: Int16
    /// The settings the conversion was taken with.
    public var config: ADS1115Config
    /// When the driver finished reading the result.
    public var time: MonotonicInstant
    /// The kernel's timestamp of the ALERT/RDY edge that marked the end of the conversion.
    public var edgeTime: MonotonicInstant?
    /// Conversions discarded before this one because they could have started before a change
    /// of settings (SBAS444 §9.4.2.2: continuous mode keeps converting with the old input).
    public var staleDiscarded: UInt32

    public init(
        code: Int16, config: ADS1115Config, time: MonotonicInstant, edgeTime: MonotonicInstant? = nil,
        staleDiscarded: UInt32 = 0
    ) {
        self.code = code
        self.config = config
        self.time = time
        self.edgeTime = edgeTime
        self.staleDiscarded = staleDiscarded
    }

    /// The input voltage, AINP − AINN: code × FSR / 2^15.
    public var volts: Double { Double(code) * config.gain.lsbVolts }

    /// 7FFFh: the input is at or above +FSR; the value is not a measurement.
    public var isOverRange: Bool { code == Int16.max }
    /// 8000h: the input is at or below −FSR.
    public var isUnderRange: Bool { code == Int16.min }
}
