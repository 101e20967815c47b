import PlumDrivers
import PlumHardware
import PlumSimulation

/// A simulated HX711 with an exact input: no noise, no creep, no drift, and a conversion log,
/// so tests can compare the driver's samples with the codes the chip produced.
func exactHX711Simulation(
    grams: Double = 100, gain: HX711Gain = .channelA128, rate: HX711Rate = .sps10,
    channelBVolts: Double = 0.5e-3, verifyBits: Bool = true,
    edgeDetection: EdgeDetection = .falling
) throws -> SimulatedHX711<VirtualClock> {
    var chip = HX711Model<VirtualClock>.Configuration()
    chip.inputNoise = 0
    chip.loadCell = LoadCell().ideal
    chip.channelBVolts = channelBVolts
    chip.conversionLogLimit = 64
    chip.edgeDetection = edgeDetection
    let driver = HX711Configuration(gain: gain, rate: rate, verifyBits: verifyBits)
    return try SimulatedHX711(load: ConstantLoad(grams: grams), driver: driver, chip: chip)
}

/// The code an ideal chip gives for a differential input, computed from the datasheet's
/// transfer function (full scale ±0.5·AVDD/gain over 2²³ counts) independently of the model.
func hx711DatasheetCode(volts: Double, gain: Int, avdd: Double = 3.3) -> Int32 {
    let exact = (volts / (0.5 * avdd / Double(gain)) * 8_388_608).rounded()
    return Int32(max(-8_388_608, min(8_388_607, exact)))
}

/// The bridge output of the default 1 kg, 1 mV/V cell with 0.02 mV/V zero balance at AVDD 3.3 V.
func hx711BridgeVolts(grams: Double) -> Double {
    (0.02 + 1.0 * grams / 1000) * 1e-3 * 3.3
}
