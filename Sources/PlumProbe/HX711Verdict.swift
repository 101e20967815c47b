package import PlumDrivers

/// What a DOUT watch says about an HX711: working at a rate, or which way it is miswired.
///
/// Pure: built from an ``HX711Observation``, so each diagnosis is tested from the line models
/// that produce it.
package enum HX711Verdict: Hashable, Sendable {
    /// DOUT falls at a steady 10 or 80 SPS and the words are inside the range.
    case ok(rate: HX711Rate, intervalNanoseconds: UInt64, lowest: Int32, highest: Int32)
    /// DOUT stayed high: no conversion was ever ready.
    case stuckHigh
    /// DOUT stayed low, and 25 PD_SCK pulses did not pull it high.
    case stuckLow
    /// DOUT changed at random, not at a rate.
    case floating(edges: Int)
    /// DOUT fell, but too seldom to be an HX711 converting.
    case tooFewFalls(count: Int)
    /// DOUT falls at a steady interval that is neither 100 ms nor 12.5 ms.
    case unknownRate(intervalNanoseconds: UInt64)
    /// Most words are full scale (7FFFFFh or 800000h): the chip converts, its input is out of range.
    case saturated(code: Int32)

    /// A steady interval may be off its nominal value by this fraction: the datasheet's on-chip
    /// oscillator is not trimmed (its 10/80 SPS figures are typical values).
    package static let rateTolerance = 0.25
    /// Fewer falls than this in a window are too few to judge a rate from.
    package static let minimumFalls = 3

    /// Judges an observation.
    package init(_ observation: HX711Observation) {
        let falls = observation.readyFalls.count
        if falls == 0, observation.strayEdges == 0 {
            self = observation.levelAtEnd && observation.doutLowAfterReadout == 0 ? .stuckHigh : .stuckLow
            return
        }
        let intervals = observation.intervals.sorted()
        if falls >= Self.minimumFalls, let median = intervals.middle {
            // A missed conversion makes one interval twice as long: still at the rate.
            let steady = intervals.filter { Self.near($0, median) || Self.near($0, median * 2) }.count
            if observation.strayEdges > falls / 2 || Double(steady) < 0.7 * Double(intervals.count) {
                self = .floating(edges: falls + observation.strayEdges)
                return
            }
            if observation.doutLowAfterReadout * 2 > falls {
                self = .stuckLow
                return
            }
            guard let rate = HX711Rate.allCases.first(where: { Self.near(median, $0.period.nanoseconds) }) else {
                self = .unknownRate(intervalNanoseconds: median)
                return
            }
            // The first words after power-up may still be settling towards full scale.
            for code: Int32 in [0x7F_FFFF, -0x80_0000]
            where observation.words.filter({ $0 == code }).count * 2 >= observation.words.count {
                self = .saturated(code: code)
                return
            }
            self = .ok(
                rate: rate, intervalNanoseconds: median, lowest: observation.words.min() ?? 0,
                highest: observation.words.max() ?? 0)
            return
        }
        if observation.strayEdges >= Self.minimumFalls {
            self = .floating(edges: falls + observation.strayEdges)
        } else if !observation.levelAtEnd, observation.doutLowAfterReadout > 0 {
            self = .stuckLow
        } else {
            self = .tooFewFalls(count: falls)
        }
    }

    static func near(_ value: UInt64, _ nominal: UInt64) -> Bool {
        let difference = value > nominal ? value - nominal : nominal - value
        return Double(difference) <= rateTolerance * Double(nominal)
    }

    package var isOK: Bool {
        if case .ok = self { return true }
        return false
    }

    /// A short name for scripts: "ok", "stuck-high", "stuck-low", "floating", "too-few-falls",
    /// "unknown-rate", "saturated".
    package var code: String {
        switch self {
        case .ok: "ok"
        case .stuckHigh: "stuck-high"
        case .stuckLow: "stuck-low"
        case .floating: "floating"
        case .tooFewFalls: "too-few-falls"
        case .unknownRate: "unknown-rate"
        case .saturated: "saturated"
        }
    }

    /// The rate DOUT falls at, when it is one.
    package var rate: HX711Rate? {
        if case .ok(let rate, _, _, _) = self { return rate }
        return nil
    }

    /// What was seen, in one sentence.
    package var finding: String {
        switch self {
        case .ok(let rate, let interval, let lowest, let highest):
            "DOUT falls every \(Self.milliseconds(interval)) ms: \(rate); words \(lowest)…\(highest)"
        case .stuckHigh:
            "DOUT stays high: no conversion was ever ready"
        case .stuckLow:
            "DOUT stays low, and 25 clock pulses on SCK do not pull it high"
        case .floating(let edges):
            "DOUT changes at random (\(edges) edges, not at a steady rate): a floating input"
        case .tooFewFalls(let count):
            "DOUT fell only \(count) time\(count == 1 ? "" : "s"): no steady conversions"
        case .unknownRate(let interval):
            "DOUT falls every \(Self.milliseconds(interval)) ms, neither 100 ms (10 SPS) nor 12.5 ms (80 SPS)"
        case .saturated(let code):
            "the words are \(code), full scale: the input is out of range"
        }
    }

    /// The likely causes, most likely first, in the words of the wiring.
    package var likelyCauses: [String] {
        switch self {
        case .ok:
            []
        case .stuckHigh:
            [
                "the HX711 is not powered: check VCC and GND",
                "DT is not on the DOUT pin named (an unconnected Pi pin reads high through its pull-up)",
                "SCK is held high (a wrong SCK pin, or DT and SCK swapped): PD_SCK high powers the HX711 down"
            ]
        case .stuckLow:
            [
                "the HX711 does not see PD_SCK: SCK is not on the pin named, or DT and SCK are swapped",
                "the DOUT pin named is held low by something else"
            ]
        case .floating:
            [
                "DT is not connected to the DOUT pin named (a loose wire, or another pin)",
                "DT and SCK are swapped: the pin read is the chip's clock input, which nothing drives"
            ]
        case .tooFewFalls:
            [
                "a loose DT, SCK, VCC or GND wire (the chip resets when its supply drops)",
                "DT and SCK are swapped"
            ]
        case .unknownRate:
            [
                "the chip is not an HX711, or runs from an external crystal (XI) at another rate",
                "the lines are swapped with another device's"
            ]
        case .saturated:
            [
                "the load cell is not connected as E+ red, E− black, A− white, A+ green (check its sheet)",
                "the load cell is overloaded, or its wires are loose"
            ]
        }
    }

    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let tenths = (nanoseconds + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension Array where Element == UInt64 {
    /// The middle element of a sorted array (the upper middle for an even count).
    var middle: UInt64? { isEmpty ? nil : self[count / 2] }
}
