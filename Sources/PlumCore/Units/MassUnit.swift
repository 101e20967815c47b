/// A unit for showing a mass; the engine itself works in grams and converts only at the edges.
public enum MassUnit: String, CaseIterable, Hashable, Sendable, Codable {
    case gram = "g"
    case ounce = "oz"
    case pound = "lb"
    case carat = "ct"

    /// Grams in one of this unit, exact by definition (international avoirdupois pound of 1959,
    /// metric carat of 1907).
    public var grams: Double {
        switch self {
        case .gram: 1
        case .ounce: 28.349_523_125
        case .pound: 453.592_37
        case .carat: 0.2
        }
    }

    /// The symbol printed after a value.
    public var symbol: String { rawValue }

    /// A mass in grams expressed in this unit.
    public func value(fromGrams grams: Double) -> Double { grams / self.grams }

    /// A mass in this unit expressed in grams.
    public func grams(from value: Double) -> Double { value * self.grams }

    /// Parses a symbol such as `"oz"`, or returns a refusal naming the accepted symbols.
    public static func parse(_ symbol: String) -> Result<MassUnit, Refusal> {
        if let unit = MassUnit(rawValue: symbol.lowercased()) { return .success(unit) }
        return .failure(
            Refusal(
                .invalidConfiguration, "unit '\(symbol)' is not known",
                hint: "use one of g, oz, lb, ct"))
    }
}
