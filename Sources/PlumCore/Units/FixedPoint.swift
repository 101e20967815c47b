#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Fixed-point decimal text without Foundation's formatters: `-0.05` at one decimal is `"-0.1"`,
/// never `"-0"`, and the same digits on every platform.
public enum FixedPoint {
    /// `value` rounded half away from zero to `decimals` places.
    public static func text(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        var digits = String(Int64(scaled))
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (value < 0 && scaled > 0 ? "-" : "") + digits
    }
}

extension MassUnit {
    /// `grams` as text in this unit (`"5.375 oz"`), with just enough decimals that one step of
    /// the display is no coarser than `step` grams, the scale's division.
    public func text(grams: Double, step: Double) -> String {
        let stepInUnit = step / self.grams
        let decimals = max(0, Int((-log10(stepInUnit)).rounded(.up)))
        return FixedPoint.text(value(fromGrams: grams), decimals: decimals) + " " + symbol
    }
}
