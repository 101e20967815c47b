import Foundation
import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

/// "Stable" is a promise about the future: while the load stays as it is, the display will not
/// move by more than 1 d. These tests hold the engine to it at both HX711 rates.
@Suite("Stable means the display will not move", .ownThreads)
struct StableDisplayTests {
    /// One load change: `from` grams for 3 s, then `to` grams for 7 s, at `rate` SPS.
    struct Scenario: Sendable, CustomStringConvertible {
        var from: Double
        var to: Double
        var rate: Int
        var noise: Double
        var seed: UInt64
        var description: String { "\(from) g → \(to) g at \(rate) SPS, noise \(noise) g rms, seed \(seed)" }
    }

    /// What the display showed after the change, and where it ended up.
    struct Outcome {
        /// (seconds after the change, display in divisions, stable) for every reading after it.
        var after: [(seconds: Double, divisions: Int64, stable: Bool)]
        /// The display the load settles to: the mean of the last 2 s of net readings, rounded.
        var finalDivisions: Int64
    }

    static func run(_ scenario: Scenario) throws -> Outcome {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: scenario.seed)
        let period = 1_000_000_000 / UInt64(scenario.rate)
        // The load changes 3 s in, or once the scale has set its power-up zero if that is later
        // (3.3 s at 10 SPS): the promise is about a scale that is up, and until then the
        // power-up zero may still take a load within its range (±2 % of Max) to zero.
        var changeAt = 3 * scenario.rate
        var end = 10 * scenario.rate
        var after: [(Double, Int64, Bool)] = []
        var tail: [Double] = []
        var index = 0
        while index < end {
            defer { index += 1 }
            if index == changeAt, engine.awaitingInitialZero, changeAt < 10 * scenario.rate {
                (changeAt, end) = (changeAt + 1, end + 1)
            }
            let grams = (index < changeAt ? scenario.from : scenario.to) + noise.gaussian(sigma: scenario.noise)
            let reading = engine.process(
                EngineInput(signal: Fixtures.signal(grams: grams), time: UInt64(index) * period))
            guard index >= changeAt else { continue }
            if case .grams(let divisions, _) = reading.display {
                after.append((Double(index - changeAt) / Double(scenario.rate), divisions, reading.isStable))
            }
            if index >= end - 2 * scenario.rate, let net = reading.net { tail.append(net) }
        }
        let mean = tail.reduce(0, +) / Double(max(1, tail.count))
        return Outcome(after: after, finalDivisions: Division.standard.round(mean).divisions)
    }

    /// The first stable reading more than 1 d from the final display, from the second
    /// conversion of the new load on. The first is the engine's only evidence of the change:
    /// one sample cannot tell a change of 1 d from noise of 0.3 d, so a display on the edge of
    /// rounding may still be called stable there (the settling benchmark does not count that
    /// conversion against anyone either).
    static func firstWrongStable(_ outcome: Outcome) -> (seconds: Double, divisions: Int64)? {
        outcome.after.dropFirst().first { $0.stable && abs($0.divisions - outcome.finalDivisions) > 1 }
            .map { ($0.seconds, $0.divisions) }
    }

    @Test("no reading flagged stable is more than 1 d from the display the load settles to")
    func stableIsFinal() async {
        // Step sizes log-uniform from 0.05 g to 100 g, so a third lie below the filter's step
        // threshold (4 d = 0.4 g); noise up to an HX711's 0.03 g rms at 80 SPS with a 1 kg cell.
        await propertyCheck(
            input: Gen.double(in: 0...280), Gen.double(in: -1.3...2), Gen.bool, Gen.element(of: [10, 80]),
            Gen.double(in: 0...0.03), Gen.int(in: 0...1_000_000)
        ) { from, exponent, down, rate, sigma, seed in
            let size = pow(10, exponent)
            let to = max(0, down ? from - size : from + size)
            let scenario = Scenario(from: from, to: to, rate: rate!, noise: sigma, seed: UInt64(seed))
            let outcome = try Self.run(scenario)
            let wrong = Self.firstWrongStable(outcome)
            let when = wrong.map { "\($0.divisions) d, \($0.seconds) s after the change" } ?? ""
            #expect(wrong == nil, "\(scenario): stable at \(when) but it settles at \(outcome.finalDivisions) d")
        }
    }

    static let smallSteps: [Scenario] = [10, 80].flatMap { rate in
        [0.33, 0.2, 0.5, -0.33].map { Scenario(from: 100, to: 100 + $0, rate: rate, noise: 0.015, seed: 7) }
    }

    @Test("a small step onto 100 g is not stable until the display has arrived", arguments: smallSteps)
    func smallStepArrives(_ scenario: Scenario) throws {
        let outcome = try Self.run(scenario)
        let wrong = Self.firstWrongStable(outcome)
        let when = "\(wrong?.divisions ?? 0) d after \(wrong?.seconds ?? 0) s"
        #expect(wrong == nil, "stable at \(when); it settles at \(outcome.finalDivisions) d")
        // And it does become stable: the promise is not kept by never making it.
        let firstStable = outcome.after.first { $0.stable }
        #expect(
            firstStable.map { $0.seconds < 1.5 } == true, "first stable after \(firstStable?.seconds ?? .infinity) s")
    }
}
