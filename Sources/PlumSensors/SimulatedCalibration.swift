package import PlumCore
package import PlumDaemonConfig
internal import PlumDrivers
import PlumSimulation

/// The exact calibration of a simulated chip, known from its model: until a calibration is
/// stored, `plumscaled --simulate` weighs with it and shows grams at once.
package enum SimulatedCalibration {
    /// The two-point fit through the chip model's noiseless codes at 0 g and at the capacity,
    /// for a simulated HX711; nil for every other kind.
    /// - Parameter scale: the engines' settings, whose capacity and division the fit uses.
    /// - Throws: the chip model's or the fit's refusal, in words.
    package static func exact(
        for sensor: SensorConfiguration, scale: ScaleConfiguration
    ) throws -> Calibration? {
        guard case .simulatedHX711(let wiring) = sensor.wiring else { return nil }
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.loadCell.capacityGrams = wiring.cellCapacityGrams
        let capacity = scale.capacity
        let empty = try SimulatedHX711<VirtualClock>.noiselessCode(grams: 0, driver: wiring.driver, chip: chip)
        let full = try SimulatedHX711<VirtualClock>.noiselessCode(grams: capacity, driver: wiring.driver, chip: chip)
        let points = [
            CalibrationPoint(grams: 0, signal: Double(empty)),
            CalibrationPoint(grams: capacity, signal: Double(full))
        ]
        return try CalibrationFit.fit(
            points: points, sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale,
            createdAt: "simulated chip"
        ).get()
    }
}
