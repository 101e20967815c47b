/// A division is stored as its value in grams (`0.1`), the form a configuration file writes it
/// in; decoding goes through ``Division/init(grams:)``, so a file with `0.3` is refused rather
/// than read as a step no display may show.
extension Division: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let grams = try container.decode(Double.self)
        do {
            self = try Division(grams: grams)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(grams)
    }
}
