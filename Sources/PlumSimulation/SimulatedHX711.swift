public import PlumDrivers
public import PlumHardware

/// A simulated HX711 sensor assembled in one call: the chip model, the real driver on its
/// lines, and the clock they share. For `--simulate`, the daemon and the tests.
///
///     // Tests: virtual time, exact and fast.
///     let sim = try SimulatedHX711(load: ConstantLoad(grams: 100))
///     let sample = try sim.sensor.next()
///
///     // plumscale raw --simulate: real time, plums arriving.
///     let live = try SimulatedHX711.realTime(seed: 7)
public struct SimulatedHX711<Time: MonotonicClock> {
    public typealias Model = HX711Model<Time>
    public typealias Sensor = HX711Sensor<Model.ClockLine, Model.DataLine, Time>

    public let clock: Time
    public let model: Model
    /// The driver on the model's lines, as a ``SampleSource``; samples carry ``SampleFlags/simulated``.
    public let sensor: Sensor

    /// Assembles model and driver on `clock`.
    ///
    /// The chip's rate follows the driver's. A clock-high limit raised above the datasheet's
    /// (an emulated bus) raises the chip's power-down threshold to 1.2 times that limit, so the
    /// pair stays consistent.
    /// - Throws: ``HX711ConfigurationError`` when the driver configuration is not usable.
    public init(
        name: String = "simulated", clock: Time, load: any LoadProfile,
        driver: HX711Configuration = HX711Configuration(),
        chip: HX711Model<Time>.Configuration = HX711Model<Time>.Configuration()
    ) throws(HX711ConfigurationError) {
        var chip = chip
        chip.rate = driver.rate
        if driver.clockHighLimit > HX711Configuration.datasheetClockHighLimit {
            chip.powerDownThreshold = max(chip.powerDownThreshold, driver.clockHighLimit * 1.2)
        }
        self.clock = clock
        model = HX711Model(clock: clock, load: load, configuration: chip)
        sensor = try HX711Sensor(
            name: name, wiring: "simulated HX711 DOUT=\(chip.doutOffset)",
            clockLine: model.clockLine, dataLine: model.dataLine, time: clock,
            configuration: driver, addedFlags: .simulated)
    }
}

extension SimulatedHX711 where Time == VirtualClock {
    /// Assembles model and driver on a new ``VirtualClock``: every line operation costs the
    /// chip configuration's ``HX711Model/Configuration/operationCost`` (1 µs by default).
    public init(
        name: String = "simulated", load: any LoadProfile,
        driver: HX711Configuration = HX711Configuration(),
        chip: HX711Model<VirtualClock>.Configuration = HX711Model<VirtualClock>.Configuration()
    ) throws(HX711ConfigurationError) {
        try self.init(name: name, clock: VirtualClock(), load: load, driver: driver, chip: chip)
    }
}

extension SimulatedHX711 where Time == VirtualClock {
    /// The code the chip gives for `grams` with noise, creep and drift off: the simulated
    /// sensor's known-weight calibration points, exact by construction.
    public static func noiselessCode(
        grams: Double, driver: HX711Configuration = HX711Configuration(),
        chip: HX711Model<VirtualClock>.Configuration = HX711Model<VirtualClock>.Configuration()
    ) throws(SensorError) -> Int32 {
        var chip = chip
        chip.inputNoise = 0
        chip.loadCell = chip.loadCell.ideal
        let sim: SimulatedHX711<VirtualClock>
        do {
            sim = try SimulatedHX711(load: ConstantLoad(grams: grams), driver: driver, chip: chip)
        } catch {
            throw .hardware(
                sensor: "simulated",
                HardwareError(
                    .invalidRequest, operation: "configuring", subject: "simulated HX711", detail: error.description))
        }
        return try sim.sensor.next().raw
    }
}

extension SimulatedHX711 where Time == SystemMonotonicClock {
    /// Assembles model and driver in real time with plums arriving and leaving
    /// (``PlumLoadModel``): waiting for a conversion sleeps until it is ready, as on a Pi.
    /// - Parameters:
    ///   - seed: seeds both the plums and the chip's noise.
    ///   - loadModel: the shape of the plum traffic.
    public static func realTime(
        name: String = "simulated", seed: UInt64,
        driver: HX711Configuration = HX711Configuration(),
        chip: HX711Model<SystemMonotonicClock>.Configuration = HX711Model<SystemMonotonicClock>.Configuration(),
        loadModel: PlumLoadModel.Configuration = PlumLoadModel.Configuration()
    ) throws(HX711ConfigurationError) -> SimulatedHX711 {
        let clock = SystemMonotonicClock()
        var chip = chip
        // Line operations take real time already; a simulated cost would only add sleeps.
        chip.operationCost = .zero
        chip.seed = seed &+ 1
        let load = PlumLoadModel(seed: seed, start: clock.now(), configuration: loadModel)
        return try SimulatedHX711(name: name, clock: clock, load: load, driver: driver, chip: chip)
    }
}
