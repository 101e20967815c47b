import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("FSR sensor end to end: load → FSR 402 → divider → ADS1115 model → driver")
struct FSRSensorEndToEndTests {
    /// The mean published conductance of a fresh simulated part under `grams`.
    func meanConductance(grams: Double, mode: ADS1115Config.Mode, useReadyPin: Bool) throws -> Double {
        let simulated = SimulatedFSRSensor(
            clock: VirtualClock(), load: ConstantLoad(grams: grams), mode: mode, useReadyPin: useReadyPin, seed: 7)
        var total = 0.0
        for _ in 0..<8 {
            let sample = try simulated.sensor.next()
            #expect(sample.flags.contains(.simulated))
            total += sample.signal
        }
        return total / 8
    }

    @Test(
        "conductance rises with force across the scale's range",
        arguments: [
            (ADS1115Config.Mode.singleShot, true), (.singleShot, false), (.continuous, true), (.continuous, false)
        ])
    func conductanceIncreasesWithForce(mode: ADS1115Config.Mode, useReadyPin: Bool) throws {
        let grams = [30.0, 60, 120, 200, 300, 385]
        let conductances = try grams.map { try meanConductance(grams: $0, mode: mode, useReadyPin: useReadyPin) }
        for (lighter, heavier) in zip(conductances, conductances.dropFirst()) {
            #expect(heavier > lighter)
        }
    }

    @Test("an empty pan reads as an open FSR: zero conductance, not a fault")
    func emptyPanIsOpen() throws {
        // One code of noise above 0 V is 264 MΩ on the 10 kΩ divider: under 0.01 µS.
        #expect(try meanConductance(grams: 0, mode: .singleShot, useReadyPin: true) < 0.01)
        #expect(
            try meanConductance(grams: 10, mode: .singleShot, useReadyPin: true) < 0.01, "below the ~20 g break force")
        #expect(try meanConductance(grams: 30, mode: .singleShot, useReadyPin: true) > 10, "above the break force")
    }

    @Test("the sensor describes its simulated wiring")
    func wiring() {
        let simulated = SimulatedFSRSensor(clock: VirtualClock(), load: ConstantLoad(grams: 100))
        #expect(simulated.sensor.info.signal == .fsrConductance)
        #expect(
            simulated.sensor.info.wiring
                == "i2c-1 address 0x48 AIN0, ±4.096 V, 128 SPS, ALERT/RDY on simulated ALERT/RDY, "
                + "FSR from 3.3 V, 10 kΩ to ground"
        )
    }
}
