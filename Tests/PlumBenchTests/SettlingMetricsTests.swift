import Testing

@testable import PlumBench

@Suite("Settling metrics")
struct SettlingMetricsTests {
    /// A 10 SPS trace: 0 g, then 100 g from t = 1 s, shown with the given values.
    func trace(_ shown: [Double?], stable: [Bool]) -> DisplayedTrace {
        let points = shown.indices.map { index in
            DisplayedTrace.Point(
                time: Double(index) / 10, truth: index >= 10 ? 100 : 0, shown: shown[index], stable: stable[index])
        }
        return DisplayedTrace(points: points, changes: [1.0])
    }

    @Test("settle time runs from the change to the first point after which all are within 1 d and stable")
    func settleTime() {
        var shown: [Double?] = Array(repeating: 0, count: 10) + [50, 101, 99, 100.05, 100, 100.1, 99.95, 100, 100, 100]
        var stable = Array(repeating: true, count: 10) + [false, false, true, true, true, true, true, true, true, true]
        var metrics = SettlingMetrics(trace(shown, stable: stable), division: 0.1)
        // 99 at t=1.2 is 10 d off; from t=1.3 all are within 0.1 and stable.
        #expect(metrics.settleTimes.count == 1)
        #expect(abs(metrics.settleTimes[0]! - 0.3) < 1e-9)
        #expect(abs(metrics.worstOvershoot - 10) < 1e-6, "101 is 1 g = 10 d past 100")
        #expect(metrics.wrongStableRate > 0, "99 was flagged stable 10 d off")
        // Never stable: never settled.
        stable = Array(repeating: false, count: 20)
        metrics = SettlingMetrics(trace(shown, stable: stable), division: 0.1)
        #expect(metrics.settleTimes == [nil])
        #expect(metrics.worstSettleTime == nil)
        // A late excursion resets settling.
        shown[18] = 100.5
        stable = Array(repeating: true, count: 20)
        metrics = SettlingMetrics(trace(shown, stable: stable), division: 0.1)
        #expect(abs(metrics.settleTimes[0]! - 0.9) < 1e-9)
    }

    @Test("settled noise is the rms and peak-to-peak of the error in d")
    func noise() {
        let shown: [Double?] =
            Array(repeating: 0, count: 10) + [100, 100.1, 99.9, 100.1, 99.9, 100.1, 99.9, 100.1, 99.9, 100]
        let metrics = SettlingMetrics(trace(shown, stable: Array(repeating: true, count: 20)), division: 0.1)
        #expect(abs(metrics.settledPeakToPeak - 2) < 1e-6)
        #expect(abs(metrics.settledNoiseRMS - (0.8 / 1.0).squareRoot()) < 1e-6)
    }
}
