import PlumTestThreads
import Testing

@testable import PlumCore

@Suite("Spike rejection and adaptive filter", .ownThreads)
struct AdaptiveFilterTests {
    struct StepCase: Sendable, CustomStringConvertible {
        var from: Double
        var to: Double
        var seed: UInt64
        var description: String { "\(from) g → \(to) g, seed \(seed)" }
    }

    static let steps = [
        StepCase(from: 0, to: 150, seed: 1),
        StepCase(from: 0, to: 5, seed: 2),
        StepCase(from: 150, to: 0, seed: 3),
        StepCase(from: 20, to: 384, seed: 4),
        StepCase(from: 0, to: 0.8, seed: 5)
    ]

    /// Runs spike filter and adaptive filter as the engine does, in grams, at 80 SPS with
    /// 0.03 g rms noise (an HX711 with a 1 kg cell at gain 128).
    static func run(_ step: StepCase, samples: Int = 240, stepAt: Int = 80) -> [Double] {
        let tuning = FilterTuning()
        let d = 0.1
        var spikes = SpikeFilter(holdTime: tuning.spikeHoldTime, threshold: tuning.spikeThreshold)
        var filter = AdaptiveFilter(timeConstant: tuning.averagingTime)
        var noise = SeededNoise(seed: step.seed)
        return (0..<samples).map { index in
            let truth = index < stepAt ? step.from : step.to
            let x = truth + noise.gaussian(sigma: 0.03)
            let time = UInt64(index) * 12_500_000
            let despiked = spikes.process(x, time: time, floor: tuning.spikeFloor * d)
            return filter.process(despiked, time: time, stepThreshold: tuning.stepThreshold * d, shift: d)
        }
    }

    @Test("a step settles within ±1 d in under 0.25 s at 80 SPS and stays there", arguments: steps)
    func settlesFast(_ step: StepCase) throws {
        let output = Self.run(step)
        let stepAt = 80
        let lastOutside = output.indices.last { abs(output[$0] - (($0 < stepAt) ? step.from : step.to)) > 0.1 }
        let settledAfter = max(0, (lastOutside ?? stepAt) - stepAt + 1)
        #expect(Double(settledAfter) / 80 < 0.25, "settled only after \(settledAfter) samples")
    }

    @Test("settled noise is far inside ±1 d (rms under a quarter division)", arguments: steps)
    func settledNoise(_ step: StepCase) {
        let output = Self.run(step, samples: 400)
        let settled = output[160...].map { $0 - step.to }
        let rms = (settled.map { $0 * $0 }.reduce(0, +) / Double(settled.count)).squareRoot()
        #expect(rms < 0.025)
        #expect(settled.allSatisfy { abs($0) <= 0.1 })
    }

    @Test("a single or double spike of 50 g never reaches the output", arguments: [1, 2])
    func rejectsSpikes(width: Int) {
        var spikes = SpikeFilter(holdTime: 25_000_000, threshold: 3)
        var filter = AdaptiveFilter(timeConstant: 200_000_000)
        var noise = SeededNoise(seed: 9)
        for index in 0..<200 {
            let spike = (100..<(100 + width)).contains(index) ? 50.0 : 0
            let x = 100 + noise.gaussian(sigma: 0.03) + spike
            let time = UInt64(index) * 12_500_000
            let y = filter.process(
                spikes.process(x, time: time, floor: 0.2), time: time, stepThreshold: 0.4, shift: 0.1)
            if index > 20 { #expect(abs(y - 100) <= 0.1, "sample \(index): \(y)") }
        }
    }

    @Test("the first sample after a large jump is the new value: the average restarts")
    func restartsOnStep() {
        var filter = AdaptiveFilter(timeConstant: 200_000_000)
        for index in 0..<50 { _ = filter.process(10, time: UInt64(index) * 12_500_000, stepThreshold: 0.4) }
        #expect(filter.depth == 50)
        #expect(filter.process(60, time: 50 * 12_500_000, stepThreshold: 0.4) == 60)
        #expect(filter.depth == 1)
        #expect(filter.stepCount == 1)
    }
}

@Suite("The step detector judges against the noise", .ownThreads)
struct NoiseJudgedStepTests {
    @Test("a 3 σ draw of one sample is neither a step nor a change under way", arguments: [0.056, 0.1])
    func threeSigmaIsNoStep(sigma: Double) {
        var filter = AdaptiveFilter(timeConstant: 200_000_000)
        var noise = SeededNoise(seed: 9)
        let d = 0.1
        var time: UInt64 = 0
        for _ in 0..<800 {
            time += 12_500_000
            _ = filter.process(
                100 + noise.gaussian(sigma: sigma), time: time, stepThreshold: 4 * d, shift: d, noise: sigma)
        }
        let before = filter.stepCount
        time += 12_500_000
        _ = filter.process(100 + 3 * sigma, time: time, stepThreshold: 4 * d, shift: d, noise: sigma)
        #expect(filter.stepCount == before)
        #expect(!filter.isSettling)
        // Ten seconds of the same noise restart it at most rarely (about once in 4 minutes).
        #expect(before <= 1, "\(before) restarts in 10 s of noise")
    }

    @Test("a sustained shift of 1 d is still caught when the noise is low")
    func sustainedShiftCaught() {
        var filter = AdaptiveFilter(timeConstant: 200_000_000)
        var time: UInt64 = 0
        for index in 0..<200 {
            time += 12_500_000
            _ = filter.process(index < 100 ? 100 : 100.1, time: time, stepThreshold: 0.4, shift: 0.1, noise: 0.003)
        }
        #expect(filter.stepCount == 1)
    }
}
