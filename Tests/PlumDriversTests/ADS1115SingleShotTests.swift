import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// A data rate and an oscillator error at or inside the datasheet's ±10 %.
struct OscillatorCase: Sendable, CustomTestStringConvertible {
    var rate: ADS1115Config.DataRate
    var error: Double
    var testDescription: String { "\(rate), oscillator \(error > 0 ? "+" : "")\(Int(error * 100)) %" }

    static let all: [OscillatorCase] = ADS1115Config.DataRate.allCases.flatMap { rate in
        [-0.10, 0, 0.10].map { OscillatorCase(rate: rate, error: $0) }
    }
}

@Suite("ADS1115 single-shot conversions")
struct ADS1115SingleShotTests {
    @Test(
        "the driver returns only after OS reads 1, whatever the data rate and oscillator error",
        arguments: OscillatorCase.all)
    func waitsForOS(_ oscillator: OscillatorCase) throws {
        let bench = ADS1115Bench(oscillatorError: oscillator.error)
        // The input steps from 0.5 V to 1.5 V just before the conversion starts, so a result
        // read too early (the previous conversion, or none) is visibly wrong.
        let stepAt = bench.clock.now().advanced(byNanoseconds: 1)
        bench.model.connect(VoltageFunction { $0 < stepAt ? 0.5 : 1.5 }, to: .ain1)
        var chip = bench.polling()
        let config = ADS1115Config(mux: .ain1, gain: .volts2_048, dataRate: oscillator.rate)
        let start = bench.clock.now()
        let conversion = try chip.read(config)
        let actualPeriod = 1e9 / (Double(oscillator.rate.samplesPerSecond) * (1 + oscillator.error))
        #expect(Double(conversion.time.nanoseconds(since: start)) >= actualPeriod)
        #expect(conversion.code == idealCode(1.5, .volts2_048))
        #expect(bench.model.conversionsCompleted == 1)
        #expect(conversion.staleDiscarded == 0)
    }

    @Test("a conversion that never finishes is notReady after the timeout, not a stale code")
    func stuckConversionIsNotReady() throws {
        let bench = ADS1115Bench(inputs: [1, 0, 0, 0])
        bench.model.conversionStuck = true
        var chip = bench.polling()
        let config = ADS1115Config(mux: .ain0, dataRate: .sps128)
        let start = bench.clock.now()
        #expect {
            _ = try chip.read(config)
        } throws: { error in
            guard case .notReady(let subject, let waited, let detail, _) = error as? ADS1115Error else { return false }
            return subject == "i2c-1 address 0x48"
                && waited == ADS1115<ADS1115Model<VirtualClock>, VirtualClock, NoReadyLine>.readyTimeout(for: .sps128)
                && detail.contains("OS bit still 0")
        }
        let waited = bench.clock.now().nanoseconds(since: start)
        #expect(waited >= ADS1115Config.DataRate.sps128.slowestConversionNanoseconds * 2)
        #expect(bench.model.conversionsCompleted == 0)
    }

    @Test("the sensor reports a stuck conversion as SensorError.notReady and counts it")
    func sensorNotReady() {
        let bench = ADS1115Bench()
        bench.model.conversionStuck = true
        let sensor = ADS1115Sensor(name: "left", chip: bench.polling(), config: ADS1115Config(mux: .ain0))
        #expect {
            _ = try sensor.next()
        } throws: { error in
            guard case .notReady(let name, _, let hint) = error as? SensorError else { return false }
            return name == "left" && hint.contains("OS bit still 0")
        }
        #expect(sensor.statistics.notReady == 1)
        #expect(sensor.statistics.published == 0)
    }

    @Test("leaving continuous mode waits for the chip to power down before starting a single shot")
    func singleShotAfterContinuous() throws {
        let bench = ADS1115Bench(inputs: [0.25, 0.75, 0, 0])
        var chip = bench.polling()
        _ = try chip.read(ADS1115Config(mux: .ain0, mode: .continuous))
        let shot = try chip.read(ADS1115Config(mux: .ain1, mode: .singleShot))
        #expect(shot.code == idealCode(0.75, .volts2_048))
        let (config, idle) = try chip.readConfiguration()
        #expect(config.mode == .singleShot)
        #expect(idle)
    }

    @Test(
        "the driver sleeps through the conversion before polling OS, so a slow conversion costs a handful of transfers",
        arguments: [ADS1115Config.DataRate.sps8, .sps128, .sps860])
    func sleepsBeforePolling(_ rate: ADS1115Config.DataRate) throws {
        let bench = ADS1115Bench(oscillatorError: -0.10, inputs: [1, 0, 0, 0])
        var chip = bench.polling()
        let config = ADS1115Config(mux: .ain0, dataRate: rate)
        _ = try chip.read(config)  // first use checks the chip's mode
        let before = bench.model.transfers
        _ = try chip.read(config)
        // Config write and Conversion read, plus OS polls over the 10 % the slow oscillator
        // adds, spaced 1/16 of a conversion apart: at most 2 + 3 polls.
        #expect(bench.model.transfers - before <= 5)
        #expect(bench.model.transfers - before >= 3, "at least one OS poll: a sleep alone is never trusted")
    }
}
