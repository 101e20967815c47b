public import PlumHardware

/// A fault the HX711 model can be told to show, on the wire or at its input.
///
/// Faults are scheduled on ``HX711Model`` with a ``Window``. Each applies to whole
/// conversions: a line fault to the read of an affected conversion (once per conversion), an
/// input fault to its value. Pulse and bit numbers count the driver's PD_SCK rising edges
/// from the conversion becoming ready, starting at 1 (pulse 1 shifts out the MSB).
public enum HX711Fault: Hashable, Sendable {
    /// DOUT reads high and shows no edges, as with DOUT unplugged (pulled up) or the chip unpowered.
    case doutStuckHigh
    /// The PD_SCK high period of pulse `pulse` lasts `by` longer, as when the sampler thread
    /// is preempted between setting PD_SCK high and low. Over 60 µs the chip powers down.
    case stretchedClock(pulse: Int, by: Duration)
    /// The PD_SCK low period after pulse `pulse` lasts `by` longer, as when the sampler thread
    /// is preempted between two pulses: the first read of DOUT with PD_SCK low after that
    /// pulse (the driver's bit verification, or its DOUT check after the last pulse) returns,
    /// then `by` passes. The chip does not mind a long low phase, and no clock-high limit sees
    /// it; but a read-out that outlasts the conversion period lets the next conversion replace
    /// the word being shifted out.
    case preemptedLowPhase(pulse: Int, by: Duration)
    /// The first read of DOUT while PD_SCK is high after pulse `bit` returns the wrong level:
    /// a transient glitch (a "bit flip") from interference on a long or unshielded DOUT wire.
    case doutGlitch(bit: Int)
    /// The input is driven beyond full scale (positive: over-range, else under-range), so the
    /// codes stick at 0x7FFFFF or 0x800000.
    case saturation(positive: Bool)
    /// The chip misses PD_SCK pulse `pulse` (a pulse too short or too slow at the pin): it
    /// counts one pulse fewer than the driver gave, a wrong pulse count.
    case missedClockPulse(pulse: Int)
    /// The chip counts PD_SCK pulse `pulse` twice (ringing on a long clock wire): one pulse
    /// more than the driver gave, a wrong pulse count.
    case extraClockPulse(pulse: Int)

    /// Which conversions a scheduled fault applies to.
    public enum Window: Hashable, Sendable {
        /// Conversions completing at or after `start`, and before `end` when given.
        case from(MonotonicInstant, until: MonotonicInstant? = nil)
        /// The next `count` conversions the chip completes.
        case nextConversions(Int)
    }
}
