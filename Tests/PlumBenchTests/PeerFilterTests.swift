import Testing

@testable import PlumBench

/// Runs a filter over `values` and returns its outputs (nil where it printed nothing).
func run<F: ReadingFilter>(_ filter: F, _ values: [Double]) -> [Double?] {
    var filter = filter
    return values.map { filter.process($0) }
}

@Suite("Peer filters, as their libraries compute them")
struct PeerFilterTests {
    @Test("bogde read_average(10) gives one truncated integer mean per 10 conversions")
    func bogde() {
        let values: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3, -4, -5, -6, -7, -8, -9, -11]
        let outputs = run(BogdeReadAverage(times: 10), values)
        #expect(outputs.compactMap { $0 } == [5, -5])  // 55/10 = 5; -56/10 = -5 (toward zero)
        #expect(outputs.enumerated().filter { $0.element != nil }.map(\.offset) == [9, 19])
    }

    @Test("HX711_ADC drops the highest and lowest of 18 and shifts by 4, flooring in offset binary")
    func hx711ADC() {
        var values = [Double](repeating: 100, count: 17)
        values.append(10_000)  // the spike is the highest: dropped
        var outputs = run(HX711ADCMovingAverage(samples: 16), values)
        #expect(outputs.dropLast().allSatisfy { $0 == nil }, "no output until the set is full")
        #expect(outputs.last! == 100)
        // 16 kept values summing to 16·(−3) + 1 → floor((−47 + 16·0x800000)/16) − 0x800000 = −3.
        values = [Double](repeating: -3, count: 15) + [-2, -1000, 1000]
        outputs = run(HX711ADCMovingAverage(samples: 16), values)
        #expect(outputs.last! == -3)
    }

    @Test("ESPHome sliding window averages what it has, then the last N")
    func slidingWindow() {
        let outputs = run(ESPHomeSlidingWindow(windowSize: 3), [3, 6, 9, 12])
        #expect(outputs == [3, 4.5, 6, 9])
        let every2 = run(ESPHomeSlidingWindow(windowSize: 3, sendEvery: 2, sendFirstAt: 1), [3, 6, 9, 12])
        #expect(every2 == [3, nil, 6, nil])
    }

    @Test("ESPHome exponential average starts at the first value, then blends by alpha")
    func exponential() {
        let outputs = run(ESPHomeExponentialAverage(alpha: 0.5), [10, 20, 20])
        #expect(outputs == [10, 15, 17.5])
    }

    @Test("gandalf15 keeps values closer to the median than one stdev of the distances")
    func gandalf15() {
        // Median 12; distances [2,1,0,1,2,88]; stdev ≈ 35.4: all but the 100 are kept.
        let mean = Gandalf15OutlierMean.filteredMean([10, 11, 12, 13, 14, 100])
        #expect(mean == 12)
        // All equal distances → the median.
        #expect(Gandalf15OutlierMean.filteredMean([5, 5, 5]) == 5)
        // 0 and 1 are dropped as Python's False and True.
        #expect(Gandalf15OutlierMean.filteredMean([0, 1, 7, 7, 7]) == 7)
        let outputs = run(Gandalf15OutlierMean(readings: 3), [7, 7, 7, 9, 9, 9])
        #expect(outputs == [nil, nil, 7, nil, nil, 9])
    }

    @Test("endail median of 3 gives the middle of each block of three")
    func endail() {
        let outputs = run(EndailMedian(samples: 3), [5, 100, 6, -1, -9, -5])
        #expect(outputs == [nil, nil, 6, nil, nil, -5])
    }
}
