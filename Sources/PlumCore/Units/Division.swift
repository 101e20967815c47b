/// The scale interval d: the step the display value moves in, 1, 2 or 5 × 10^k grams.
///
/// OIML R 76-1 allows only these forms, so a display never shows a step such as 0.3 g.
/// The value is kept as mantissa and exponent so that rounding and printing are exact in
/// decimal: 0.1 g times 3 is printed as 0.3, never as 0.30000000000000004.
public struct Division: Hashable, Sendable, CustomStringConvertible {
    /// 1, 2 or 5.
    public let mantissa: Int
    /// The power of ten: −1 for 0.1 g, 0 for 1 g.
    public let exponent: Int

    /// The default division of a 385 g scale: 0.1 g (3850 divisions).
    public static let standard = Division(validMantissa: 1, exponent: -1)

    /// A division from its mantissa (1, 2 or 5) and power of ten (−6 ... 3).
    public init(mantissa: Int, exponent: Int) throws(Refusal) {
        guard [1, 2, 5].contains(mantissa) else {
            throw Refusal(
                .invalidConfiguration,
                "division mantissa \(mantissa) is not allowed",
                hint: "use 1, 2 or 5 × 10^k g, for example 0.1, 0.2, 0.5 or 1 g")
        }
        guard (-6...3).contains(exponent) else {
            throw Refusal(
                .invalidConfiguration,
                "division exponent \(exponent) is out of range",
                hint: "use a division between 0.000001 g and 5000 g")
        }
        self.mantissa = mantissa
        self.exponent = exponent
    }

    /// A division from a value in grams, which must be 1, 2 or 5 × 10^k.
    public init(grams: Double) throws(Refusal) {
        guard grams.isFinite, grams > 0 else {
            throw Refusal(
                .invalidConfiguration, "division \(grams) g is not a positive number",
                hint: "use 1, 2 or 5 × 10^k g, for example 0.1 g")
        }
        for exponent in -6...3 {
            for mantissa in [1, 2, 5] {
                let candidate = Division(validMantissa: mantissa, exponent: exponent)
                if abs(candidate.grams - grams) <= candidate.grams * 1e-9 {
                    self = candidate
                    return
                }
            }
        }
        throw Refusal(
            .invalidConfiguration, "division \(grams) g is not 1, 2 or 5 × 10^k g",
            hint: "choose the nearest allowed step, for example 0.1, 0.2, 0.5 or 1 g")
    }

    private init(validMantissa: Int, exponent: Int) {
        self.mantissa = validMantissa
        self.exponent = exponent
    }

    /// The division in grams (the nearest Double to the decimal value).
    public var grams: Double { Division.value(Int64(mantissa), exponent: exponent) }

    /// Digits after the decimal point needed to print a multiple of the division.
    public var decimals: Int { max(0, -exponent) }

    /// Rounds `grams` to the nearest multiple of the division (halves away from zero).
    ///
    /// - Returns: the number of divisions and the rounded value, computed from the integer count so
    ///   that it is the Double nearest to the exact decimal.
    public func round(_ grams: Double) -> (divisions: Int64, grams: Double) {
        // Scale by an exact power of ten rather than dividing by an inexact 0.1, so a value
        // such as 12.35 lands on the half it is written as.
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        let scaled = exponent < 0 ? grams * power : grams / power
        let steps = (scaled / Double(mantissa)).rounded(.toNearestOrAwayFromZero)
        // Beyond ±2^53 steps the count is meaningless; clamp instead of trapping on conversion.
        let clamped = max(-9.0e15, min(9.0e15, steps.isNaN ? 0 : steps))
        let divisions = Int64(clamped)
        return (divisions, Division.value(divisions * Int64(mantissa), exponent: exponent))
    }

    /// The value in grams of `divisions` steps of the division (the Double nearest the decimal).
    public func grams(divisions: Int64) -> Double {
        Division.value(divisions * Int64(mantissa), exponent: exponent)
    }

    /// Prints a multiple of the division with exactly ``decimals`` digits, without Foundation.
    public func format(divisions: Int64) -> String { format(divisions: divisions, suffix: "") }

    /// The same with `suffix` (such as `" g"`) after it, written in the same pass: the display
    /// text of every reading is made here, digit by digit into one buffer on the stack, with
    /// no intermediate `String` (docs/PERFORMANCE.md, 4).
    public func format(divisions: Int64, suffix: StaticString) -> String {
        let units = divisions * Int64(mantissa)
        // At most 20 digits, the zeros of a positive exponent, a point, a sign and the suffix.
        let capacity = 32 + suffix.utf8CodeUnitCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var start = capacity - suffix.utf8CodeUnitCount
            suffix.withUTF8Buffer { bytes in
                for (offset, byte) in bytes.enumerated() { buffer[start + offset] = byte }
            }
            func put(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            var magnitude = units.magnitude
            if exponent >= 0 {
                if magnitude > 0 { for _ in 0..<exponent { put(UInt8(ascii: "0")) } }
                repeat {
                    put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                    magnitude /= 10
                } while magnitude > 0
            } else {
                // The last -exponent digits go after the point, and one digit at least before it.
                let places = -exponent
                var written = 0
                repeat {
                    if written == places { put(UInt8(ascii: ".")) }
                    put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                    magnitude /= 10
                    written += 1
                } while magnitude > 0 || written <= places
            }
            if units < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<capacity]), as: UTF8.self)
        }
    }

    /// Formats `grams` rounded to the division.
    public func format(_ grams: Double) -> String { format(divisions: round(grams).divisions) }

    public var description: String { format(divisions: 1) + " g" }

    private static func value(_ units: Int64, exponent: Int) -> Double {
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        // Dividing by an exact power of ten gives the correctly rounded decimal value.
        return exponent >= 0 ? Double(units) * power : Double(units) / power
    }
}
