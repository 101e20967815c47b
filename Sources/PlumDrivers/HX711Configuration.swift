/// How one HX711 is read: input and gain, output rate, timeouts and integrity checks.
///
/// The defaults are the datasheet's (Avia HX711, "Serial Interface" and "Output Data Rate and
/// Format"): channel A gain 128, 10 SPS, a 50 µs limit on each PD_SCK high period, and four
/// settling conversions discarded after power-up, reset or a gain change. ``validated()``
/// checks a configuration read from a file before a driver uses it.
public struct HX711Configuration: Hashable, Sendable {
    /// The datasheet's maximum PD_SCK high time (T3, 50 µs). Above 60 µs the chip powers down.
    public static let datasheetClockHighLimit: Duration = .microseconds(50)
    /// The datasheet's settling: 400 ms at 10 SPS, 50 ms at 80 SPS, four conversions either way.
    public static let datasheetSettlingConversions = 4

    /// The input and gain every conversion is taken with.
    public var gain: HX711Gain = .channelA128
    /// The rate the RATE pin sets (the driver cannot change it).
    public var rate: HX711Rate = .sps10
    /// How long to wait for DOUT to go low; `nil` means ``defaultReadyTimeout(for:)``.
    public var readyTimeout: Duration?
    /// The longest PD_SCK high period a conversion is trusted after. Raise it only for slow or
    /// emulated buses whose chip model powers down later than a real HX711 does.
    public var clockHighLimit: Duration = datasheetClockHighLimit
    /// Conversions discarded after power-up, reset or a gain/channel change.
    public var settlingConversions: Int = datasheetSettlingConversions
    /// Read DOUT again after PD_SCK falls and discard the conversion on disagreement.
    public var verifyBits: Bool = true

    public init(
        gain: HX711Gain = .channelA128, rate: HX711Rate = .sps10, readyTimeout: Duration? = nil,
        clockHighLimit: Duration = datasheetClockHighLimit,
        settlingConversions: Int = datasheetSettlingConversions, verifyBits: Bool = true
    ) {
        self.gain = gain
        self.rate = rate
        self.readyTimeout = readyTimeout
        self.clockHighLimit = clockHighLimit
        self.settlingConversions = settlingConversions
        self.verifyBits = verifyBits
    }

    /// Four conversion periods and 100 ms of margin for scheduling: 500 ms at 10 SPS, 150 ms at 80 SPS.
    ///
    /// Four periods cover the longest legitimate gap between ready edges (a conversion that
    /// completes while a late read is still clocking is lost, and the chip needs one period
    /// after power-up); anything longer means the chip is not there.
    public static func defaultReadyTimeout(for rate: HX711Rate) -> Duration {
        rate.period * 4 + .milliseconds(100)
    }

    /// How long one read-out may last, from the kernel's timestamp of its ready edge to the end
    /// of its last PD_SCK pulse: three quarters of the conversion period (75 ms at 10 SPS,
    /// 9.375 ms at 80 SPS).
    ///
    /// The next conversion completes one period after the ready edge and replaces the word
    /// being clocked out (the datasheet allows 25 to 27 pulses "within one conversion period").
    /// A quarter period is kept back because the internal oscillator's rate is only "typical",
    /// and the edge is stamped after the interrupt's latency. A real read-out takes about
    /// 50 µs, so only a sampler preempted mid-read-out comes near it.
    public var readoutLimit: Duration { rate.period * 3 / 4 }

    /// The ready timeout in force.
    public var effectiveReadyTimeout: Duration { readyTimeout ?? Self.defaultReadyTimeout(for: rate) }

    /// Whether the clock-high limit differs from the datasheet's 50 µs, so summaries can say so.
    public var isClockHighLimitChanged: Bool { clockHighLimit != Self.datasheetClockHighLimit }

    /// How long the driver holds PD_SCK high to power the chip down for a reset: 10 ms, as the
    /// kernel driver's `hx711_reset` does (its author found on the oscilloscope that the first
    /// value after a shorter reset was not reliable, and none at 10 ms or more), or twice a
    /// raised clock-high limit, whose emulated chip powers down correspondingly later.
    public var powerDownHold: Duration { max(.milliseconds(10), clockHighLimit * 2) }

    /// Settings changed from their safe defaults, in words, for ``SourceInfo/notices``.
    public var notices: [String] {
        var notices: [String] = []
        if isClockHighLimitChanged {
            notices.append(
                "clock-high limit \(clockHighLimit < Self.datasheetClockHighLimit ? "lowered" : "raised") to "
                    + "\(clockHighLimit.formattedMicroseconds) (default "
                    + "\(Self.datasheetClockHighLimit.formattedMicroseconds))"
                    + (clockHighLimit > Self.datasheetClockHighLimit ? ": for slow or emulated buses only" : ""))
        }
        if settlingConversions < Self.datasheetSettlingConversions {
            notices.append(
                "settling discard lowered to \(settlingConversions) conversions (datasheet: "
                    + "\(Self.datasheetSettlingConversions)): "
                    + "values after power-up or a gain change may not have settled")
        }
        if !verifyBits {
            notices.append("bit verification off: glitches on DOUT go undetected")
        }
        return notices
    }

    /// Checks the settings a driver relies on.
    /// - Returns: the configuration unchanged.
    /// - Throws: ``HX711ConfigurationError`` naming the setting, the problem and a usable value.
    public func validated() throws(HX711ConfigurationError) -> HX711Configuration {
        if let readyTimeout {
            let minimum = rate.period * 2
            if readyTimeout < minimum {
                throw HX711ConfigurationError(
                    setting: "ready-timeout", value: readyTimeout.formattedMilliseconds,
                    problem: "is shorter than two conversion periods at \(rate) (\(minimum.formattedMilliseconds))",
                    hint:
                        "use at least \(minimum.formattedMilliseconds), or leave it out for "
                        + "\(Self.defaultReadyTimeout(for: rate).formattedMilliseconds)"
                )
            }
            if readyTimeout > .seconds(60) {
                throw HX711ConfigurationError(
                    setting: "ready-timeout", value: readyTimeout.formattedMilliseconds,
                    problem: "is longer than 60 s, so a missing chip would go unnoticed",
                    hint: "leave it out for \(Self.defaultReadyTimeout(for: rate).formattedMilliseconds)")
            }
        }
        if clockHighLimit < .nanoseconds(200) {
            throw HX711ConfigurationError(
                setting: "clock-high-limit", value: clockHighLimit.formattedMicroseconds,
                problem: "is below the datasheet's minimum PD_SCK high time (0.2 µs), "
                    + "so every conversion would be discarded",
                hint: "leave it out for the datasheet's 50 µs")
        }
        if clockHighLimit > .milliseconds(10) {
            throw HX711ConfigurationError(
                setting: "clock-high-limit", value: clockHighLimit.formattedMicroseconds,
                problem: "is above 10 ms; a real HX711 powers down after 60 µs",
                hint: "leave it out for the datasheet's 50 µs; raise it only for an emulated bus")
        }
        if !(0...64).contains(settlingConversions) {
            throw HX711ConfigurationError(
                setting: "settling-conversions", value: String(settlingConversions),
                problem: "is outside 0...64",
                hint: "leave it out for the datasheet's \(Self.datasheetSettlingConversions)")
        }
        return self
    }
}

extension Duration {
    /// "50 µs", for messages.
    public var formattedMicroseconds: String {
        let (seconds, attoseconds) = components
        let us = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        return us == us.rounded() ? "\(Int(us)) µs" : "\(us) µs"
    }
}
