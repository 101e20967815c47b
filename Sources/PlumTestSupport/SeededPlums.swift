/// The fruit of the end-to-end item tests: 30 plums of known weight and the size bands that
/// grade them, shared by every test that weighs a crate through a real daemon (the daemon's,
/// the bridge's), so that each proves the same truth and a change of the crate is made once.
/// The browser suite, in Python, makes the same crate with the same generator.
package enum SeededPlums {
    /// Plum size grading in three bands, as a `[[class]]` configuration block.
    package static let classes = """
        [[class]]
        name = "small"
        min_grams = 0
        [[class]]
        name = "medium"
        min_grams = 35
        [[class]]
        name = "large"
        min_grams = 60

        """

    /// The bands' names, lightest first, as the daemon reports a session's class counts.
    package static let classNames = ["small", "medium", "large"]

    /// The class a plum of `grams` must get from `classes`.
    package static func className(_ grams: Double) -> String {
        grams >= 60 ? "large" : grams >= 35 ? "medium" : "small"
    }

    /// The plums' true weights, in grams to 0.01 g: seeded, 25 to 95 g, none within 0.2 g of a
    /// class boundary, so the class each must get is certain from its truth.
    package static let weights: [Double] = {
        var state: UInt64 = 0x5EED_1234
        var plums: [Double] = []
        while plums.count < 30 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let grams = 25 + Double((state >> 33) % 7_001) / 100
            guard abs(grams - 35) > 0.2, abs(grams - 60) > 0.2 else { continue }
            plums.append(grams)
        }
        return plums
    }()

    /// How many of `weights` each class of `classNames` must count.
    package static var classCounts: [Int] {
        classNames.map { name in weights.filter { className($0) == name }.count }
    }

    /// A simulated HX711 pan named `pan` whose load is the grams written to `loadFile`.
    package static func pan(loadFile: String, seed: Int = 11) -> String {
        """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = \(seed)
        rate = 80
        load_file = "\(loadFile)"

        """
    }
}
