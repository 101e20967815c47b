public import PlumDrivers
public import PlumHardware

/// The output of an FSR divider as an analog signal: load → FSR resistance → divider volts,
/// ready to connect to an ``ADS1115Model`` input.
public struct FSRDividerSignal: AnalogSignal {
    public let fsr: FSRModel
    public let divider: FSRDivider

    public init(fsr: FSRModel, divider: FSRDivider) {
        self.fsr = fsr
        self.divider = divider
    }

    public func volts(at time: MonotonicInstant) -> Double {
        divider.outputVolts(fsrOhms: fsr.ohms(at: time))
    }
}
