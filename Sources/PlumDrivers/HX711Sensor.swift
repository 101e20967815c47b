public import PlumHardware

/// An HX711 as a ``SampleSource``: the driver with the description the daemon lists.
///
/// Generic over the same lines and clock as ``HX711``, so the sampler thread's loop stays
/// specialised. Used from one thread at a time, like every ``SampleSource``.
public final class HX711Sensor<Clock: GPIOOutputLine, Data: GPIOEdgeLine, Time: MonotonicClock>: SampleSource {
    public typealias Driver = HX711<Clock, Data, Time>

    public private(set) var driver: Driver
    public let info: SourceInfo
    /// Flags added to every sample, such as ``SampleFlags/simulated`` for a chip model.
    public let addedFlags: SampleFlags

    /// - Parameters:
    ///   - name: the sensor's configured name, such as "left".
    ///   - wiring: the lines in words, such as "gpiochip0 DOUT=GPIO5 SCK=GPIO6".
    ///   - addedFlags: flags for every sample (``SampleFlags/simulated`` on a chip model).
    /// - Throws: ``HX711ConfigurationError`` when the configuration is not usable.
    public init(
        name: String, wiring: String, clockLine: Clock, dataLine: Data, time: Time,
        configuration: HX711Configuration = HX711Configuration(), addedFlags: SampleFlags = []
    ) throws(HX711ConfigurationError) {
        driver = try HX711(
            name: name, clockLine: clockLine, dataLine: dataLine, time: time, configuration: configuration)
        self.addedFlags = addedFlags
        info = SourceInfo(
            name: name, kind: "hx711",
            wiring: "\(wiring), \(configuration.gain), \(configuration.rate)",
            signal: .loadCellCounts, nominalRate: configuration.rate.samplesPerSecond,
            notices: configuration.notices)
    }

    public var statistics: DriverStatistics { driver.statistics }

    public func next() throws(SensorError) -> Sample {
        var sample = try driver.read()
        sample.flags.formUnion(addedFlags)
        return sample
    }

    /// Selects another input and gain for the following reads; conversions until it has
    /// settled are discarded.
    public func setGain(_ gain: HX711Gain) { driver.setGain(gain) }

    /// Powers the chip down (PD_SCK held high); the next sample powers it up with a reset.
    public func powerDown() throws(SensorError) { try driver.powerDown() }

    /// Powers the chip up with a reset; settling conversions are discarded.
    public func powerUp() throws(SensorError) { try driver.powerUp() }
}
