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

    /// Prints a multiple of the division with exactly ``decimals`` digits, without Foundation.
    public func format(divisions: Int64) -> String {
        let units = divisions * Int64(mantissa)
        let negative = units < 0
        let magnitude = units.magnitude
        var text: String
        if exponent >= 0 {
            var scaled = magnitude
            for _ in 0..<exponent { scaled *= 10 }
            text = String(scaled)
        } else {
            var digits = String(magnitude)
            let places = -exponent
            if digits.count <= places {
                digits = String(repeating: "0", count: places - digits.count + 1) + digits
            }
            let split = digits.index(digits.endIndex, offsetBy: -places)
            text = digits[..<split] + "." + digits[split...]
        }
        return negative ? "-" + text : text
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
