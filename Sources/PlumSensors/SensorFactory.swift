package import PlumDaemonConfig
package import PlumDrivers
import PlumHardware
import PlumSimulation

/// Opens the sample source a `[[sensor]]` table describes: the real driver on real hardware,
/// the driver on a chip model for simulated kinds, or a trace player.
package enum SensorFactory {
    /// Opens `sensor`.
    /// - Throws: ``SensorError/hardware(sensor:_:)`` naming the chip, line, bus or file that
    ///   could not be opened, with a hint.
    package static func open(_ sensor: SensorConfiguration) throws(SensorError) -> any SampleSource {
        switch sensor.wiring {
        case .replay(let wiring):
            return try TraceReplay(
                name: sensor.name, path: wiring.path, traceSensor: wiring.traceSensor,
                realTime: wiring.realTime, clock: SystemMonotonicClock())
        case .iio(let wiring):
            return try IIOSensor(
                name: sensor.name, device: wiring.device, channel: wiring.channel, root: wiring.root,
                pollRate: wiring.pollRate, clock: SystemMonotonicClock())
        case .hx711(let wiring):
            return try openHX711(sensor.name, wiring)
        case .simulatedHX711(let wiring):
            return try openSimulatedHX711(sensor.name, wiring)
        case .ads1115(let wiring):
            return try openADS1115(sensor.name, wiring)
        case .simulatedFSR(let wiring):
            let clock = SystemMonotonicClock()
            let load: any LoadProfile =
                switch wiring.load {
                case .plums: PlumLoadModel(seed: wiring.seed, start: clock.now())
                case .constant(let grams): ConstantLoad(grams: grams)
                case .file(let path): FileLoad(path: path)
                }
            return SimulatedFSRSensor(
                name: sensor.name, clock: clock, load: load, dataRate: wiring.dataRate,
                divider: wiring.divider, seed: wiring.seed
            ).sensor
        }
    }

    /// The real driver on two lines of a real GPIO chip: PD_SCK an output driven low (a high
    /// line would power the chip down), DOUT an input reporting falling edges (conversion ready).
    static func openHX711(_ name: String, _ wiring: HX711Wiring) throws(SensorError) -> any SampleSource {
        do throws(HardwareError) {
            let chip = try GPIOChip(try GPIOChipSpec(parsing: wiring.chip))
            let sck = try GPIOLineSpec(parsing: wiring.sck)
            let dout = try GPIOLineSpec(parsing: wiring.dout)
            let clockLine = try chip.requestOutput(sck, consumer: "plumscale \(name) PD_SCK", initialValue: false)
            let dataLine = try chip.requestInput(dout, consumer: "plumscale \(name) DOUT", edges: .falling)
            do {
                return try HX711Sensor(
                    name: name, wiring: "\(chip.info.name) DOUT=\(dout) PD_SCK=\(sck)",
                    clockLine: clockLine, dataLine: dataLine, time: SystemMonotonicClock(),
                    configuration: wiring.driver)
            } catch {
                throw HardwareError(
                    .invalidRequest, operation: "configuring", subject: "HX711", detail: error.description)
            }
        } catch {
            throw .hardware(sensor: name, error)
        }
    }

    /// The real driver on an I2C device. Sensors on one chip take turns through its lock; an
    /// ALERT/RDY line is requested with a pull-up, as the pin is open-drain.
    static func openADS1115(_ name: String, _ wiring: ADS1115Wiring) throws(SensorError) -> any SampleSource {
        do throws(HardwareError) {
            let bus = try I2CBusSpec(parsing: wiring.bus)
            let device = try I2CDevice(bus: bus, address: try I2CAddress(validating: Int(wiring.address)))
            let lock = ChipLock.shared(wiring.chipKey)
            guard let alert = wiring.alert else {
                let adc = ADS1115(bus: device, clock: SystemMonotonicClock())
                return SerializedSource(
                    ADS1115Sensor(name: name, chip: adc, config: wiring.config, divider: wiring.divider), lock: lock)
            }
            let chip = try GPIOChip(try GPIOChipSpec(parsing: alert.chip))
            let line = try chip.requestInput(
                try GPIOLineSpec(parsing: alert.line), consumer: "plumscale \(name) ALERT/RDY", bias: .pullUp,
                edges: .falling)
            let adc = ADS1115(bus: device, clock: SystemMonotonicClock(), readyLine: line)
            return SerializedSource(
                ADS1115Sensor(
                    name: name, chip: adc, config: wiring.config, divider: wiring.divider,
                    readyLineDescription: "\(chip.info.name) \(alert.line)"),
                lock: lock)
        } catch {
            throw .hardware(sensor: name, error)
        }
    }

    /// The chip model in real time, with plums coming and going, a constant load, or the grams
    /// in a file; with `unplug_file`, a chip whose DOUT wire is pulled while that file exists.
    static func openSimulatedHX711(_ name: String, _ wiring: SimulatedHX711Wiring) throws(SensorError)
        -> any SampleSource
    {
        var chip = HX711Model<SystemMonotonicClock>.Configuration()
        chip.loadCell.capacityGrams = wiring.cellCapacityGrams
        let simulated: SimulatedHX711<SystemMonotonicClock>
        do {
            switch wiring.load {
            case .plums:
                simulated = try SimulatedHX711.realTime(
                    name: name, seed: wiring.seed, driver: wiring.driver, chip: chip)
            case .constant(let grams):
                chip.operationCost = .zero
                chip.seed = wiring.seed &+ 1
                simulated = try SimulatedHX711(
                    name: name, clock: SystemMonotonicClock(), load: ConstantLoad(grams: grams), driver: wiring.driver,
                    chip: chip)
            case .file(let path):
                chip.operationCost = .zero
                chip.seed = wiring.seed &+ 1
                simulated = try SimulatedHX711(
                    name: name, clock: SystemMonotonicClock(), load: FileLoad(path: path), driver: wiring.driver,
                    chip: chip)
            }
        } catch {
            throw .hardware(
                sensor: name,
                HardwareError(
                    .invalidRequest, operation: "configuring", subject: "simulated HX711", detail: error.description))
        }
        if let unplugFile = wiring.unplugFile { return UnpluggableHX711(simulated, switchFile: unplugFile) }
        return simulated.sensor
    }
}
