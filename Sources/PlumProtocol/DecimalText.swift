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

    /// `value` as ``appendFixed(_:decimals:to:)`` writes it: rounded to the grid of 10^-decimals
    /// below 2^50 units, itself beyond. A report keeps its numbers this way, so that it decodes
    /// to exactly the values it was made with.
    ///
    /// - Parameter decimals: 0 to 9.
    static func onGrid(_ value: Double, decimals: Int) -> Double {
        let scale = power(decimals)
        let scaled = (value * scale).rounded()
        return scaled.magnitude < 0x1p50 ? scaled / scale : value
    }

    /// Appends `value` on the grid of 10^-decimals, exactly as ``JSONWriter/number(_:)`` writes
    /// ``onGrid(_:decimals:)``: the shortest text that reads back as that double.
    ///
    /// Below 2^50 units, `value` is rounded half away from zero (of `value × 10^decimals` as
    /// computed in doubles): the product's own rounding and the distance from `value` to its grid
    /// point add up to at most a quarter of a unit, so the product rounds to the same unit as the
    /// exact one would. From there on the product may land on a neighbouring unit, so `value` is
    /// written as it is: digit by digit when it is the double nearest to a grid point below 2^52
    /// units (a report's time in microseconds is, until the year 2112), which the unit and its
    /// two neighbours are checked for; through the general path otherwise.
    ///
    /// - Parameter decimals: 0 to 9.
    static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        precondition((0...9).contains(decimals), "decimals is 0 to 9")
        if let units = units(value, decimals: decimals) {
            appendFixed(units: units, decimals: decimals, to: &out)
        } else {
            out.append(contentsOf: JSONWriter.number(value).utf8)
        }
    }

    /// The whole units of 10^-decimals `value` is written as (see
    /// ``appendFixed(_:decimals:to:)``), or nil when it takes the general path.
    static func units(_ value: Double, decimals: Int) -> Int64? {
        let scale = power(decimals)
        let scaled = (value * scale).rounded()
        // Not finite, or too fine a grid for a double: as it is.
        guard scaled.magnitude < 0x1p52 else { return nil }
        let units = Int64(scaled)
        if scaled.magnitude < 0x1p50 { return units }
        if Double(units) / scale == value { return units }
        if Double(units - 1) / scale == value { return units - 1 }
        if Double(units + 1) / scale == value { return units + 1 }
        return nil
    }

    /// 10^decimals, exact for 0 to 22.
    private static func power(_ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return scale
    }

    /// Appends `value` in decimal, padded with leading zeros to `minimumWidth` digits (at most
    /// 20, the digits of `UInt64.max`).
    private static func appendDigits(_ value: UInt64, minimumWidth: Int, to out: inout [UInt8]) {
        // Digits from the right into a buffer on the stack, then one copy: writing them into the
        // array in place checked its uniqueness once a digit.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var index = 20
            var rest = value
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            while 20 - index < minimumWidth {
                index -= 1
                buffer[index] = UInt8(ascii: "0")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }
}
