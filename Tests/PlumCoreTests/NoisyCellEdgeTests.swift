import PlumTestSupport
import PlumTestThreads
import Testing

@testable import PlumCore

/// The measurements a noisy cell's rest depends on: the noise itself, knocks close together,
/// and the zero set at power-up (issue 25 §9).
@Suite("A noisy cell: its noise, its knocks and its power-up zero", .ownThreads)
struct NoisyCellEdgeTests {
    /// Six blocks are 10 s at 10 SPS. The lower quartile of six robust block estimates alone
    /// was within 20 % of σ on about seven seeds in ten, and a third low on some: ordinary draws
    /// then looked like a load moving. Pooling the rest blocks' mean squares is good to ±9 %.
    @Test("six blocks of Gaussian noise give σ within 20 % on 95 % of seeds")
    func sixBlocksKnowTheNoise() {
        var close = 0
        let seeds = 1...200
        for seed in seeds {
            var noise = SeededNoise(seed: UInt64(seed))
            var estimate = SignalNoise()
            for _ in 0...(6 * SignalNoise.blockSize) { estimate.add(50 + noise.gaussian(sigma: 0.1)) }
            if let sigma = estimate.sigma, abs(sigma / 0.1 - 1) <= 0.2 { close += 1 }
        }
        #expect(Double(close) / Double(seeds.count) >= 0.95, "\(close) of \(seeds.count) estimates within 20 %")
    }

    @Test("a pan moved for a while does not raise the noise: motion blocks are left out")
    func motionIsNotNoise() throws {
        var noise = SeededNoise(seed: 4)
        var estimate = SignalNoise()
        // 20 blocks at rest, then 6 of a pan pushed about by 2 g at random.
        for _ in 0..<(20 * SignalNoise.blockSize) { estimate.add(noise.gaussian(sigma: 0.1)) }
        for _ in 0..<(6 * SignalNoise.blockSize) { estimate.add(noise.gaussian(sigma: 2)) }
        let sigma = try #require(estimate.sigma)
        #expect(abs(sigma / 0.1 - 1) <= 0.2, "σ \(sigma) g for 0.1 g of noise at rest")
    }

    /// A knock at a block's edge (the first sample, or the sample between two blocks) puts one
    /// difference of many σ in a block, and it moved the mean the block's squares were taken
    /// about by a sixteenth of it, within the clipping limit of every other difference: a 6.4 g
    /// knock on the first sample read 0.1 g of noise as 0.14 g after six blocks (0.24 g after one),
    /// and at 10 SPS it stayed in the estimate for 51 s (RestingLoadTests, trace seed 875636).
    @Test(
        "a knock at the edge of a block does not raise the noise measured",
        arguments: [(0, -6.5), (0, 8.0), (16, 6.0), (16, -8.0)])
    func knockAtABlockEdgeIsNotNoise(at index: Int, by grams: Double) throws {
        var noise = SeededNoise(seed: 875_636)
        var estimate = SignalNoise()
        for sample in 0...(6 * SignalNoise.blockSize) {
            estimate.add(50 + (sample == index ? grams : 0) + noise.gaussian(sigma: 0.1))
        }
        let sigma = try #require(estimate.sigma)
        #expect(abs(sigma / 0.1 - 1) <= 0.2, "σ \(sigma) g for 0.1 g of noise, a \(grams) g knock at sample \(index)")
    }

    /// At 10 SPS one conversion is held; a window of three with two knocks in it had a knock
    /// for its median, and the second knock reached the display as a new load.
    @Test("two knocks two conversions apart at 10 SPS are both held back")
    func knocksCloseTogether() {
        var spikes = SpikeFilter(holdTime: 25_000_000, threshold: 3)
        let period: UInt64 = 100_000_000
        let values = [100.0, 100, 100, 100, 100, 69, 100, 88, 100, 100]
        let out = values.enumerated().map { index, value in
            spikes.process(value, time: UInt64(index) * period, floor: 0.2, noise: 0.025)
        }
        #expect(out.allSatisfy { $0 == 100 }, "passed: \(out)")
    }

    @Test("a real step still passes after one conversion at 10 SPS, knocks before it or not")
    func stepStillPasses() {
        var spikes = SpikeFilter(holdTime: 25_000_000, threshold: 3)
        let period: UInt64 = 100_000_000
        let values = [100.0, 100, 100, 69, 100, 250, 250, 250]
        let out = values.enumerated().map { index, value in
            spikes.process(value, time: UInt64(index) * period, floor: 0.2, noise: 0.025)
        }
        #expect(out.suffix(2) == [250, 250], "passed: \(out)")
    }

    /// At power-up, the zero used to be set from the first stable reading, which at 10 SPS with
    /// 1 d of noise could be a mean of a few samples and a restart's selection: a division off,
    /// beyond what tracking (±½ d) ever takes back, so every load read a division wrong.
    @Test("a noisy cell at 10 SPS sets its power-up zero within ½ d, over 100 seeds")
    func powerUpZeroOnANoisyCell() async throws {
        let errors = try await offPool {
            try (UInt64(1)...100).map { seed -> Double in
                var engine = try Fixtures.engine()
                var noise = SeededNoise(seed: seed)
                var grossSum = 0.0
                var count = 0
                for index in 0..<150 {
                    let raw = noise.gaussian(sigma: 0.1)
                    let reading = engine.process(
                        EngineInput(signal: Fixtures.signal(grams: raw), time: UInt64(index) * 100_000_000))
                    // The last 5 s: the mean gross of an empty pan is the zero's error.
                    if index >= 100, let gross = reading.gross { (grossSum, count) = (grossSum + gross, count + 1) }
                }
                return grossSum / Double(max(1, count))
            }
        }
        let worst = errors.map(abs).max() ?? 0
        #expect(worst <= 0.05, "the empty pan reads up to \(worst) g after power-up; per seed: \(errors)")
    }
}
