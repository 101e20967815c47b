/// Size grading by weight: ordered bands, each with a name and the least weight that belongs to
/// it; an item takes the class of the highest band whose minimum it reaches (docs/items.md).
///
/// Plums graded for sale, for example:
///
/// ```toml
/// [[class]]
/// name = "small"
/// min_grams = 0
/// [[class]]
/// name = "medium"
/// min_grams = 35
/// [[class]]
/// name = "large"
/// min_grams = 60
/// ```
///
/// A 34.9 g plum is `small`, 35.0 g `medium`, 60.0 g and anything heavier `large`. An item below
/// the first band has no class (nil); start the first band at 0 to class everything.
public struct WeightClasses: Hashable, Sendable, Codable {
    /// One band: the least weight, in grams, that is of class `name`.
    public struct Band: Hashable, Sendable, Codable {
        public var name: String
        public var minimumGrams: Double

        public init(name: String, minimumGrams: Double) {
            self.name = name
            self.minimumGrams = minimumGrams
        }
    }

    /// The bands, lightest first.
    public let bands: [Band]

    private enum CodingKeys: String, CodingKey { case bands }

    /// Checks the bands: named, each name once, finite minimums strictly rising.
    public init(_ bands: [Band]) throws(Refusal) {
        var names = Set<String>()
        for (index, band) in bands.enumerated() {
            guard !band.name.isEmpty, !band.name.allSatisfy(\.isWhitespace) else {
                throw Refusal(
                    .invalidConfiguration, "weight class \(index + 1) has no name",
                    hint: "give every class a name, such as name = \"large\"")
            }
            guard names.insert(band.name).inserted else {
                throw Refusal(
                    .invalidConfiguration, "weight class \"\(band.name)\" is configured twice",
                    hint: "give each class its own name")
            }
            guard band.minimumGrams.isFinite, band.minimumGrams >= 0 else {
                throw Refusal(
                    .invalidConfiguration,
                    "weight class \"\(band.name)\" has min_grams \(band.minimumGrams), not a weight",
                    hint: "use 0 or more grams")
            }
            if index > 0, !(band.minimumGrams > bands[index - 1].minimumGrams) {
                throw Refusal(
                    .invalidConfiguration,
                    "weight class \"\(band.name)\" (min_grams \(band.minimumGrams)) does not start above "
                        + "\"\(bands[index - 1].name)\" (min_grams \(bands[index - 1].minimumGrams))",
                    hint: "list the classes lightest first, each min_grams above the one before")
            }
        }
        self.bands = bands
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bands = try container.decode([Band].self, forKey: .bands)
        do {
            try self.init(bands)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .bands, in: container, debugDescription: error.description)
        }
    }

    /// The class of an item of `grams`: the highest band whose minimum it reaches; nil below
    /// the first band.
    ///
    /// The weight is the item's rounded value, so the class agrees with the weight printed
    /// beside it: 59.9 g is never `large` because the unrounded load was 59.96 g.
    public func name(forGrams grams: Double) -> String? {
        // The last band reached; bands are few (a handful), so a scan is the plain way.
        var found: String?
        for band in bands where grams >= band.minimumGrams { found = band.name }
        return found
    }

    /// Whether an item of `grams` lies within 1 d of a band's least weight (the first band's
    /// included): one division more or less would class it otherwise, so the class is flagged
    /// `borderline` rather than trusted blindly.
    public func isBorderline(grams: Double, division: Division) -> Bool {
        bands.contains { abs(grams - $0.minimumGrams) <= division.grams * (1 + 1e-9) }
    }
}
