import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// A mode and a way of waiting, for a chip that resets under the driver.
struct ResetCase: Sendable, CustomTestStringConvertible {
    var mode: ADS1115Config.Mode
    var waiting: Waiting
    var testDescription: String { "\(mode), \(waiting.rawValue)" }
    static let all = [ADS1115Config.Mode.singleShot, .continuous].flatMap { mode in
        Waiting.allCases.map { ResetCase(mode: mode, waiting: $0) }
    }
}

@Suite("ADS1115 chip reset under the driver")
struct ADS1115ResetTests {
    @Test(
        "after a supply dip no reading is stale or the reset value, and the next reads are right again",
        arguments: ResetCase.all)
    func resetIsNeverReadAsData(_ reset: ResetCase) throws {
        let bench = ADS1115Bench(inputs: [0, 1.2, 0, 0])
        let config = ADS1115Config(mux: .ain1, mode: reset.mode, dataRate: .sps250)
        let expected = idealCode(1.2, .volts2_048)
        var results: [Result<ADS1115Conversion, ADS1115Error>] = []
        switch reset.waiting {
        case .pacing:
            var chip = bench.polling()
            results.append(Result { () throws(ADS1115Error) in try chip.read(config) })
            bench.model.powerCycle()
            for _ in 0..<3 { results.append(Result { () throws(ADS1115Error) in try chip.read(config) }) }
        case .readyPin:
            var chip = bench.withReadyPin()
            results.append(Result { () throws(ADS1115Error) in try chip.read(config) })
            bench.model.powerCycle()
            for _ in 0..<3 { results.append(Result { () throws(ADS1115Error) in try chip.read(config) }) }
        }
        var failures = 0
        for result in results {
            switch result {
            case .success(let conversion): #expect(conversion.code == expected)
            case .failure: failures += 1
            }
        }
        #expect(failures <= 1, "one failed read at most, then the driver configures the chip again")
        if case .success(let last) = results.last {
            #expect(last.code == expected)
        } else {
            Issue.record("no recovery")
        }
    }
}
