/// Numbers written straight into a report's bytes, without a `String` in between.
///
/// A WEIGHT report carries about ten numbers, and formatting them through `String` (an
/// interpolation, an allocation and a copy each) was most of a report's cost
/// (docs/PERFORMANCE.md, section 4). Integers are written digit by digit. A report's real
/// numbers are quantities on a fixed grid (the time to the microsecond, grams to 0.1 mg), and
/// for those ``appendFixed(units:decimals:to:)`` writes exactly the text that
/// ``JSONWriter/number(_:)`` writes for the rounded value, with no floating-point printing at
/// all.
enum DecimalText {
    /// Appends the decimal digits of `value`, with a leading `-` when negative: the same text as
    /// `String(value)`.
    static func appendInteger<I: BinaryInteger>(_ value: I, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude fits in 64 bits for every integer type a report carries; a wider one
        // (never written today) takes the String path rather than being cut.
        guard let magnitude = UInt64(exactly: value.magnitude) else {
            out.append(contentsOf: String(value.magnitude).utf8)
            return
        }
        appendDigits(magnitude, minimumWidth: 1, to: &out)
    }

    /// Appends `units × 10^-decimals`, without trailing zeros and without a decimal point for a
    /// whole number: the same text as ``JSONWriter/number(_:)`` gives the double nearest to it.
    ///
    /// Why the digits of `units` are that text: the double `r` nearest to the decimal
    /// `units·10^-decimals` is one correctly rounded division of two exactly represented numbers.
    /// While `|units| < 2^52`, the spacing of doubles near `r` is less than `10^-decimals`, so no
    /// other decimal with that many places or fewer lies in `r`'s rounding interval: the shortest
    /// text that reads back as `r` is `units`' own, trailing zeros dropped. Past 2^52 units, below
    /// 1e-4 (where Swift's shortest text turns to exponent notation) and from 1e15 on (where
    /// `number` writes whole numbers with ".0"), the value takes the general path.
    ///
    /// - Parameter decimals: 0 to 9.
    static func appendFixed(units: Int64, decimals: Int, to out: inout [UInt8]) {
        precondition((0...9).contains(decimals), "decimals is 0 to 9")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = units.magnitude
        if magnitude == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        let nearest = Double(units) / Double(scale)
        guard magnitude < 1 << 52, nearest.magnitude >= 1e-4, nearest.magnitude < 1e15 else {
            out.append(contentsOf: JSONWriter.number(nearest).utf8)
            return
        }
        if units < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(magnitude / scale, minimumWidth: 1, to: &out)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        var places = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        out.append(UInt8(ascii: "."))
        appendDigits(fraction, minimumWidth: places, to: &out)
    }

    /// Appends `value` rounded to `decimals` places (half away from zero, of `value × 10^decimals`
    /// as computed in doubles), as ``appendFixed(units:decimals:to:)`` writes it.
    ///
    /// Below 2^50 units the product's own rounding and the distance from `value` to its grid
    /// point add up to at most a quarter of a unit, so the product rounds to the same unit as the
    /// exact one would; beyond that the general path prints the rounded double.
    ///
    /// - Parameter decimals: 0 to 9.
    static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        precondition((0...9).contains(decimals), "decimals is 0 to 9")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 0x1p50 else {
            out.append(contentsOf: JSONWriter.number(scaled / scale).utf8)
            return
        }
        appendFixed(units: Int64(scaled), decimals: decimals, to: &out)
    }

    /// Appends `value` in decimal, padded with leading zeros to `minimumWidth` digits.
    private static func appendDigits(_ value: UInt64, minimumWidth: Int, to out: inout [UInt8]) {
        var width = 1
        var bound: UInt64 = 10
        while width < 20, value >= bound {
            width += 1
            bound = bound.multipliedReportingOverflow(by: 10).partialValue
        }
        width = max(width, minimumWidth)
        let end = out.count + width
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = value
        var index = end
        while rest != 0 {
            index -= 1
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }
}
