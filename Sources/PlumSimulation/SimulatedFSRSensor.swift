public import PlumDrivers
public import PlumHardware

/// A complete simulated FSR sensor in one call: an FSR 402 under a load, its divider, an
/// ADS1115 model on a simulated bus with its ALERT/RDY pin, and the real driver on top.
///
/// Tests pass a ``VirtualClock``; `--simulate` and the daemon pass ``SystemMonotonicClock``,
/// and the model then converts in real time (the sampler thread really sleeps).
public struct SimulatedFSRSensor<Clock: MonotonicClock> {
    public typealias Model = ADS1115Model<Clock>
    public typealias Sensor = ADS1115Sensor<Model, Clock, Model.AlertPin>

    public let model: Model
    public let fsr: FSRModel
    public let divider: FSRDivider
    /// The sample source: the real ADS1115 driver on the model.
    public let sensor: Sensor

    /// - Parameters:
    ///   - name: the sensor's name.
    ///   - clock: shared by the model and the driver.
    ///   - load: grams on the FSR over time.
    ///   - input: the ADS1115 input the divider feeds.
    ///   - gain: the range; ±4.096 V covers a 3.3 V divider.
    ///   - dataRate: conversions per second.
    ///   - mode: single-shot or continuous.
    ///   - useReadyPin: wait on ALERT/RDY edges instead of polling OS.
    ///   - divider: the FSR divider; Interlink's standard with 10 kΩ on 3.3 V by default.
    ///   - parameters: the FSR's curve and imperfections.
    ///   - seed: one seed for the part, the noise and the oscillator, so runs replay exactly.
    public init(
        name: String = "fsr", clock: Clock, load: any LoadProfile, input: Model.Input = .ain0,
        gain: ADS1115Config.ProgrammableGain = .volts4_096, dataRate: ADS1115Config.DataRate = .sps128,
        mode: ADS1115Config.Mode = .singleShot, useReadyPin: Bool = true,
        divider: FSRDivider? = nil, parameters: FSRModel.Parameters = .fsr402,
        seed: UInt64 = 1, busNumber: Int = 1, address: UInt8 = 0x48
    ) {
        var random = SeededRandom(seed: seed)
        // Real oscillators sit well inside the ±10 % limit; ±3 % keeps runs realistic.
        let oscillator = 0.03 * (2 * random.unit() - 1)
        let model = Model(
            clock: clock, busNumber: busNumber, address: address, supplyVolts: 3.3,
            oscillatorError: oscillator, seed: random.next())
        let divider = divider ?? (FSRDivider.standard)
        let fsr = FSRModel(load: load, parameters: parameters, seed: random.next())
        model.connect(FSRDividerSignal(fsr: fsr, divider: divider), to: input)
        let config = ADS1115Config(mux: input.singleEnded, gain: gain, mode: mode, dataRate: dataRate)
        let chip = ADS1115(bus: model, clock: clock, readyLine: useReadyPin ? model.alertPin : nil)
        self.model = model
        self.fsr = fsr
        self.divider = divider
        sensor = Sensor(
            name: name, chip: chip, config: config, divider: divider,
            readyLineDescription: useReadyPin ? "simulated ALERT/RDY" : nil, extraFlags: .simulated)
    }
}
