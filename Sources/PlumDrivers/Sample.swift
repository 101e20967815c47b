public import PlumHardware

/// One conversion a driver trusts, with its time and its integrity flags.
///
/// Samples that fail an integrity check (a stretched clock, a failed DOUT check, a settling
/// conversion, a read-out that outlasted the conversion period) are never published as
/// samples: they are counted in ``discarded`` of the next sample that is published, and in the
/// driver's running ``DriverStatistics``.
public struct Sample: Hashable, Sendable {
    /// The ADC code as the chip produced it: 24-bit two's complement for the HX711, 16-bit for
    /// the ADS1115, the `in_voltageN_raw` value for IIO.
    public var raw: Int32
    /// The quantity the weighing engine calibrates against: counts for a load cell, the FSR's
    /// conductance in microsiemens for an FSR divider, `(raw + offset) × scale` (millivolts)
    /// for IIO. See ``SignalKind``.
    public var signal: Double
    /// When the driver finished reading the conversion (monotonic clock).
    public var time: MonotonicInstant
    /// The kernel's timestamp of the conversion-ready edge, where the driver waited on one.
    public var edgeTime: MonotonicInstant?
    public var flags: SampleFlags
    /// Conversions discarded since the previous published sample, by reason.
    public var discarded: DiscardCounts

    public init(
        raw: Int32, signal: Double, time: MonotonicInstant, edgeTime: MonotonicInstant? = nil,
        flags: SampleFlags = [], discarded: DiscardCounts = DiscardCounts()
    ) {
        self.raw = raw
        self.signal = signal
        self.time = time
        self.edgeTime = edgeTime
        self.flags = flags
        self.discarded = discarded
    }
}

/// Facts about one published sample.
public struct SampleFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The signal is pinned at the top of what the channel can show, and the value is not a
    /// measurement: the code stuck at the top of the ADC's range (HX711 0x7FFFFF, ADS1115
    /// 0x7FFF), or an FSR shorted. Flags follow the signal, not the code: for an FSR on the
    /// ground side, whose conductance falls as the code rises, 0x7FFF is ``underRange``.
    public static let overRange = SampleFlags(rawValue: 1 << 0)
    /// The signal is pinned at the bottom of what the channel can show (HX711 0x800000,
    /// ADS1115 0x8000; 0x7FFF for an FSR on the ground side).
    public static let underRange = SampleFlags(rawValue: 1 << 1)
    /// Replayed from a recorded trace rather than read from a chip.
    public static let replayed = SampleFlags(rawValue: 1 << 2)
    /// Produced by a simulated chip.
    public static let simulated = SampleFlags(rawValue: 1 << 3)

    public var names: [String] {
        var names: [String] = []
        if contains(.overRange) { names.append("over-range") }
        if contains(.underRange) { names.append("under-range") }
        if contains(.replayed) { names.append("replayed") }
        if contains(.simulated) { names.append("simulated") }
        return names
    }

    public var description: String { names.joined(separator: ",") }
}

/// Why conversions were thrown away, counted.
public struct DiscardCounts: Hashable, Sendable {
    /// A clock-high period outlasted the driver's limit (preemption while bit-banging): the
    /// bits may be shifted, or the chip may have powered down mid-read.
    public var stretchedClock: UInt32 = 0
    /// The chip failed an integrity check (HX711: DOUT not high after the gain pulses).
    public var integrity: UInt32 = 0
    /// Conversions taken during settling after power-up, reset, gain or channel change.
    public var settling: UInt32 = 0
    /// Conversions the driver judged stale (ADS1115: result from before a MUX change).
    public var stale: UInt32 = 0
    /// A read-out outlasted its budget of the conversion period, counted from the kernel's
    /// timestamp of its ready edge, or that edge was not seen (HX711): the next conversion may
    /// have replaced the word while it was being clocked out.
    public var lateReadout: UInt32 = 0
    /// Conversions the chip completed and overwrote with the next before the driver read them
    /// (HX711: the sampler was away for more than a conversion period), counted from the time
    /// between the ready edges' kernel timestamps; see `HX711ConversionTracker`.
    public var missedConversion: UInt32 = 0

    public init(
        stretchedClock: UInt32 = 0, integrity: UInt32 = 0, settling: UInt32 = 0, stale: UInt32 = 0,
        lateReadout: UInt32 = 0, missedConversion: UInt32 = 0
    ) {
        self.stretchedClock = stretchedClock
        self.integrity = integrity
        self.settling = settling
        self.stale = stale
        self.lateReadout = lateReadout
        self.missedConversion = missedConversion
    }

    public var total: UInt32 {
        stretchedClock &+ integrity &+ settling &+ stale &+ lateReadout &+ missedConversion
    }
    public var isEmpty: Bool { total == 0 }

    public static func += (a: inout DiscardCounts, b: DiscardCounts) {
        a.stretchedClock &+= b.stretchedClock
        a.integrity &+= b.integrity
        a.settling &+= b.settling
        a.stale &+= b.stale
        a.lateReadout &+= b.lateReadout
        a.missedConversion &+= b.missedConversion
    }

    /// Every reason under the key reports use, zeros included, in a fixed order:
    /// `stretched_clock`, `integrity`, `settling`, `stale`, `late_readout`, `missed_conversion`.
    /// Encoders iterate this, so a new reason reaches `raw --json` and `?DEVICES` without
    /// changing them.
    public var byKey: [(key: String, count: UInt32)] {
        [
            ("stretched_clock", stretchedClock), ("integrity", integrity), ("settling", settling),
            ("stale", stale), ("late_readout", lateReadout), ("missed_conversion", missedConversion)
        ]
    }

    /// Reasons with non-zero counts, for summaries: `[("stretched clock", 3)]`.
    public var reasons: [(reason: String, count: UInt32)] {
        [
            ("stretched clock", stretchedClock), ("integrity check", integrity),
            ("settling", settling), ("stale", stale), ("late read-out", lateReadout),
            ("missed conversion", missedConversion)
        ].filter { $0.1 > 0 }
    }
}

/// What ``Sample/signal`` measures, so the engine can pick the right calibration model.
public enum SignalKind: String, Hashable, Sendable, Codable {
    /// Raw ADC counts proportional to force: a load cell through an HX711.
    case loadCellCounts = "load-cell-counts"
    /// Conductance of a force-sensitive resistor in microsiemens: non-linear in force.
    case fsrConductance = "fsr-conductance"
    /// A voltage in millivolts from a kernel IIO channel.
    case millivolts = "millivolts"
}
