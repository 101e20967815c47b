internal import PlumDrivers

/// The configurations `--simulate` runs when no file is given.
extension PlumConfiguration {
    /// What `plumscaled --simulate` runs: two pans, left and right, with seeded plums coming
    /// and going (the Plum-O-Meter with nothing wired).
    package static let simulatedPans = PlumConfiguration(
        sensors: ["left", "right"].enumerated().map { index, name in
            SensorConfiguration(
                name: name,
                wiring: .simulatedHX711(
                    SimulatedHX711Wiring(
                        seed: UInt64(index + 1), driver: HX711Configuration(gain: .channelA128, rate: .sps80),
                        load: .plums,
                        cellCapacityGrams: 1000)))
        },
        source: "--simulate")

    /// What `--simulate` reads when no file is given: one simulated HX711 at 80 SPS with plums.
    package static let builtInSimulation = PlumConfiguration(sensors: [
        SensorConfiguration(
            name: "sim",
            wiring: .simulatedHX711(
                SimulatedHX711Wiring(
                    seed: 1, driver: HX711Configuration(gain: .channelA128, rate: .sps80), load: .plums,
                    cellCapacityGrams: 1000)))
    ])
}
