import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 bus faults and saturation")
struct ADS1115FaultTests {
    @Test("a chip that does not acknowledge is a hardware error saying ENXIO, the bus and the address")
    func noAcknowledge() throws {
        let bench = ADS1115Bench()
        bench.model.inject(.noAcknowledge())
        let sensor = ADS1115Sensor(name: "left", chip: bench.polling(), config: ADS1115Config(mux: .ain0))
        #expect {
            _ = try sensor.next()
        } throws: { error in
            guard case .hardware(let name, let hardware) = error as? SensorError else { return false }
            let text = (error as! SensorError).description
            return name == "left" && hardware.errno == .noSuchDeviceOrAddress
                && hardware.subject == "i2c-1 address 0x48"
                && text.contains("ENXIO") && text.contains("0x48") && text.contains("i2cdetect -y 1")
        }
        #expect(sensor.statistics.hardwareOperations >= 1)
    }

    @Test("transient EIO fails the reads it hits, then the sensor recovers with the right value")
    func transientIOError() throws {
        let bench = ADS1115Bench(inputs: [1.2, 0, 0, 0])
        let sensor = ADS1115Sensor(name: "left", chip: bench.polling(), config: ADS1115Config(mux: .ain0))
        _ = try sensor.next()
        bench.model.inject(.transientIOError(count: 2))
        var failures = 0
        var sample: Sample?
        for _ in 0..<4 {
            do {
                sample = try sensor.next()
                break
            } catch {
                guard case .hardware(_, let hardware) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(hardware.errno == .ioError)
                failures += 1
            }
        }
        #expect(failures == 2)
        let recovered = try #require(sample)
        #expect(recovered.raw == Int32(idealCode(1.2, .volts2_048)))
        #expect(sensor.statistics.published == 2)
    }

    @Test("codes 7FFFh and 8000h are flagged over and under range", arguments: SaturationCase.all)
    func saturation(_ saturation: SaturationCase) throws {
        let bench = ADS1115Bench(inputs: [saturation.ain0, saturation.ain1, 0, 0])
        let sensor = ADS1115Sensor(
            name: "probe", chip: bench.polling(), config: ADS1115Config(mux: .ain0MinusAin1, gain: .volts1_024))
        let sample = try sensor.next()
        #expect(sample.flags == saturation.flags)
        #expect(sample.raw == saturation.raw)
        #expect(sensor.statistics.saturated == (saturation.flags.isEmpty ? 0 : 1))
    }
}

/// Inputs on AIN0 and AIN1 at ±1.024 V, and what AIN0 − AIN1 must read.
struct SaturationCase: Sendable, CustomTestStringConvertible {
    var ain0: Double
    var ain1: Double
    var raw: Int32
    var flags: SampleFlags
    var testDescription: String { "AIN0 \(ain0) V, AIN1 \(ain1) V" }

    static let all = [
        SaturationCase(ain0: 3.3, ain1: 0, raw: 0x7FFF, flags: .overRange),
        SaturationCase(ain0: 0, ain1: 3.3, raw: -0x8000, flags: .underRange),
        SaturationCase(ain0: 1.0, ain1: 0.5, raw: 16000, flags: [])
    ]
}
