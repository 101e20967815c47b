import PlumDrivers
import PlumHardware
import PlumSimulation

/// A simulated ADS1115 on a virtual clock, with the driver on top: the bench every ADS1115
/// test starts from.
struct ADS1115Bench {
    let clock = VirtualClock()
    let model: ADS1115Model<VirtualClock>

    init(oscillatorError: Double = 0, noise: Bool = false, inputs: [Double] = [0, 0, 0, 0]) {
        model = ADS1115Model(clock: clock, oscillatorError: oscillatorError)
        model.noiseEnabled = noise
        for (input, volts) in zip(ADS1115Model<VirtualClock>.Input.allCases, inputs) {
            model.connect(ConstantVolts(volts), to: input)
        }
    }

    func polling() -> ADS1115<ADS1115Model<VirtualClock>, VirtualClock, NoReadyLine> {
        ADS1115(bus: model, clock: clock)
    }

    func withReadyPin() -> ADS1115<ADS1115Model<VirtualClock>, VirtualClock, ADS1115Model<VirtualClock>.AlertPin> {
        ADS1115(bus: model, clock: clock, readyLine: model.alertPin)
    }
}

/// The code an ideal ADS1115 gives for `volts` at `gain`.
func idealCode(_ volts: Double, _ gain: ADS1115Config.ProgrammableGain) -> Int16 {
    Int16(max(-32768, min(32767, (volts / gain.lsbVolts).rounded())))
}
