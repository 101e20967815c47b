public import PlumDrivers
import PlumHardware
import PlumSimulation

/// Opens the sample source a `[[sensor]]` table describes: the real driver on real hardware,
/// the driver on a chip model for simulated kinds, or a trace player.
public enum SensorFactory {
    /// Opens `sensor`.
    /// - Throws: ``SensorError/hardware(sensor:_:)`` naming the chip, line, bus or file that
    ///   could not be opened, with a hint.
    public static func open(_ sensor: SensorConfiguration) throws(SensorError) -> any SampleSource {
        switch sensor.wiring {
        case .replay(let wiring):
            return try TraceReplay(
                name: sensor.name, path: wiring.path, traceSensor: wiring.traceSensor,
                realTime: wiring.realTime, clock: SystemMonotonicClock())
        case .iio(let wiring):
            return try IIOSensor(
                name: sensor.name, device: wiring.device, channel: wiring.channel, root: wiring.root,
                pollRate: wiring.pollRate, clock: SystemMonotonicClock())
        case .hx711, .ads1115, .simulatedHX711, .simulatedFSR:
            throw .hardware(sensor: sensor.name, HardwareError(
                .invalidRequest, operation: "opening", subject: "a \(sensor.kind.rawValue) sensor",
                detail: "this build has no \(sensor.kind.rawValue) driver yet"))
        }
    }
}

extension PlumConfiguration {
    /// What `--simulate` reads when no file is given: one simulated HX711 at 80 SPS with plums.
    public static let builtInSimulation = PlumConfiguration(sensors: [
        SensorConfiguration(name: "sim", wiring: .simulatedHX711(SimulatedHX711Wiring(
            seed: 1, rate: 80, gain: 128, load: .plums, cellCapacityGrams: 1000))),
    ])
}
