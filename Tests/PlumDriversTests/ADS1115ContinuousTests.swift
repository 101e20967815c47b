import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// How the driver learns that a conversion finished.
enum Waiting: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case pacing = "paced by time"
    case readyPin = "ALERT/RDY edges"
    var testDescription: String { rawValue }
}

@Suite("ADS1115 continuous mode")
struct ADS1115ContinuousTests {
    /// Reads `count` conversions of a rising ramp on AIN0.
    func rampReadings(_ waiting: Waiting, oscillatorError: Double, count: Int) throws -> [ADS1115Conversion] {
        let bench = ADS1115Bench(oscillatorError: oscillatorError)
        let origin = bench.clock.now()
        // 1 V per second: one 128 SPS conversion apart is about 7.8 mV, 125 codes at ±2.048 V.
        bench.model.connect(VoltageFunction { Double($0.nanoseconds(since: origin)) / 1e9 }, to: .ain0)
        let config = ADS1115Config(mux: .ain0, gain: .volts2_048, mode: .continuous, dataRate: .sps128)
        var results: [ADS1115Conversion] = []
        switch waiting {
        case .pacing:
            var chip = bench.polling()
            for _ in 0..<count { results.append(try chip.read(config)) }
        case .readyPin:
            var chip = bench.withReadyPin()
            for _ in 0..<count { results.append(try chip.read(config)) }
        }
        return results
    }

    @Test(
        "every read is a new conversion: codes of a rising ramp strictly increase",
        arguments: Waiting.allCases, [-0.10, 0.0, 0.10])
    func noDuplicateReads(_ waiting: Waiting, oscillatorError: Double) throws {
        let readings = try rampReadings(waiting, oscillatorError: oscillatorError, count: 20)
        for (earlier, later) in zip(readings, readings.dropFirst()) {
            #expect(later.code > earlier.code)
        }
    }

    @Test("with ALERT/RDY every conversion is read and stamped with its edge")
    func readyPinReadsEveryConversion() throws {
        let readings = try rampReadings(.readyPin, oscillatorError: 0, count: 10)
        let period = 1e9 / 128
        for (earlier, later) in zip(readings, readings.dropFirst()) {
            let edges = try #require(later.edgeTime).nanoseconds(since: try #require(earlier.edgeTime))
            #expect(abs(Double(edges) - period) < 2, "consecutive edges are one conversion apart")
        }
    }
}
