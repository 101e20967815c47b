import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

/// A mode and a way of waiting, for scanning.
struct ScanCase: Sendable, CustomTestStringConvertible {
    var mode: ADS1115Config.Mode
    var waiting: Waiting
    var oscillatorError: Double
    var testDescription: String { "\(mode), \(waiting.rawValue), oscillator \(Int(oscillatorError * 100)) %" }

    static let all: [ScanCase] = [ADS1115Config.Mode.singleShot, .continuous].flatMap { mode in
        Waiting.allCases.flatMap { waiting in
            [-0.10, 0, 0.10].map { ScanCase(mode: mode, waiting: waiting, oscillatorError: $0) }
        }
    }
}

@Suite("ADS1115 scanning several channels")
struct ADS1115ScanTests {
    static let volts = [0.40, 1.10, 1.70, 0.05]

    @Test("each reading of a four-channel scan matches its own channel, round after round", arguments: ScanCase.all)
    func noStaleResults(_ scan: ScanCase) throws {
        let bench = ADS1115Bench(oscillatorError: scan.oscillatorError, inputs: Self.volts)
        let configs = ADS1115Config.Mux.allCases.filter { $0.negativeInput == nil }.map {
            ADS1115Config(mux: $0, gain: .volts2_048, mode: scan.mode, dataRate: .sps475)
        }
        var results: [[ADS1115Conversion]] = []
        switch scan.waiting {
        case .pacing:
            var chip = bench.polling()
            for _ in 0..<3 { results.append(try chip.scan(configs)) }
        case .readyPin:
            var chip = bench.withReadyPin()
            for _ in 0..<3 { results.append(try chip.scan(configs)) }
        }
        for round in results {
            for (conversion, volts) in zip(round, Self.volts) {
                #expect(conversion.code == idealCode(volts, .volts2_048), "\(conversion.config.mux)")
            }
        }
        if scan.mode == .continuous {
            // Every MUX change but the very first start leaves one stale conversion behind.
            let stale = results.joined().map(\.staleDiscarded).reduce(0, +)
            #expect(stale == UInt32(results.count * configs.count - 1))
        }
    }

    @Test("differential pairs read AINP − AINN")
    func differentialPairs() throws {
        let bench = ADS1115Bench(inputs: Self.volts)
        var chip = bench.polling()
        for mux in ADS1115Config.Mux.allCases where mux.negativeInput != nil {
            let conversion = try chip.read(ADS1115Config(mux: mux, gain: .volts2_048))
            let expected = Self.volts[mux.positiveInput] - Self.volts[mux.negativeInput!]
            #expect(conversion.code == idealCode(expected, .volts2_048), "\(mux)")
        }
    }
}
