import PlumBench
import PlumDrivers
import Testing

@Suite("GPIO operations per HX711 sample, counted on the chip model's lines")
struct GPIOOperationCountTests {
    @Test(
        "each sample clocks 24 data pulses plus the gain's pulses, a set high and low each, and waits once for the ready edge",
        arguments: [(HX711Gain.channelA128, 25), (.channelB32, 26), (.channelA64, 27)])
    func pulsesPerGain(gain: HX711Gain, pulses: Int) throws {
        let count = try GPIOOperationCount.measure(samples: 50, rate: .sps80, gain: gain)
        #expect(count.samples == 50)
        #expect(count.clockSets == 50 * 2 * pulses, "PD_SCK high and low for every pulse")
        #expect(count.edgeWaits >= 50, "at least one wait for the ready edge per sample")
        #expect(count.dataGets >= 50 * 24, "DOUT read for every bit")
        #expect(count.perSample == Double(count.total) / 50)
    }
}
