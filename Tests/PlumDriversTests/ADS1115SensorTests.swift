import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 as a sample source")
struct ADS1115SensorTests {
    @Test("info names the kind, the wiring and the signal; a plain channel publishes millivolts")
    func millivoltChannel() throws {
        let bench = ADS1115Bench(inputs: [1.5, 0, 0, 0])
        let sensor = ADS1115Sensor(
            name: "probe", chip: bench.polling(),
            config: ADS1115Config(mux: .ain0, gain: .volts4_096, dataRate: .sps128))
        #expect(sensor.info.kind == "ads1115")
        #expect(sensor.info.wiring == "i2c-1 address 0x48 AIN0, ±4.096 V, 128 SPS")
        #expect(sensor.info.signal == .millivolts)
        #expect(sensor.info.nominalRate == 128)
        let sample = try sensor.next()
        #expect(sample.raw == Int32(idealCode(1.5, .volts4_096)))
        #expect(abs(sample.signal - 1500) <= 0.125, "within one 125 µV code")
        #expect(sensor.statistics.published == 1)
        #expect(sensor.statistics.hardwareOperations == sensor.chip.operations)
        #expect(sensor.statistics.hardwareOperations == bench.model.transfers)
    }

    @Test("a divider channel publishes the FSR's conductance in microsiemens")
    func conductanceChannel() throws {
        let bench = ADS1115Bench()
        // 1 kΩ FSR on the 10 kΩ Interlink divider: 3.0 V, 1000 µS.
        bench.model.connect(ConstantVolts(FSRDivider.standard.outputVolts(fsrOhms: 1_000)), to: .ain0)
        let sensor = ADS1115Sensor(
            name: "pad", chip: bench.polling(), config: ADS1115Config(mux: .ain0, gain: .volts4_096),
            divider: .standard)
        #expect(sensor.info.signal == .fsrConductance)
        let sample = try sensor.next()
        #expect(abs(sample.signal - 1000) / 1000 < 0.001)
    }

    @Test("continuous scans without ALERT/RDY carry a notice, and stale discards reach the next sample")
    func continuousNoticeAndDiscards() throws {
        let bench = ADS1115Bench(inputs: [0.5, 0, 0, 0])
        var chip = bench.polling()
        _ = try chip.read(ADS1115Config(mux: .ain1, mode: .continuous))
        let sensor = ADS1115Sensor(name: "probe", chip: chip, config: ADS1115Config(mux: .ain0, mode: .continuous))
        #expect(sensor.info.notices.count == 1)
        let sample = try sensor.next()
        #expect(sample.discarded.stale == 1)
        #expect(sample.raw == Int32(idealCode(0.5, .volts2_048)))
        #expect(sensor.statistics.discarded.stale == 1)
        #expect(try sensor.next().discarded.isEmpty)
    }

    @Test("a divider output at the supply rail is flagged over range with a finite signal")
    func shortedFSR() throws {
        let bench = ADS1115Bench(inputs: [3.3, 0, 0, 0])
        let sensor = ADS1115Sensor(
            name: "pad", chip: bench.polling(), config: ADS1115Config(mux: .ain0, gain: .volts4_096), divider: .standard
        )
        let sample = try sensor.next()
        #expect(sample.flags.contains(.overRange))
        #expect(sample.signal.isFinite && sample.signal > 0)
        #expect(sensor.statistics.saturated == 1)
    }
}
