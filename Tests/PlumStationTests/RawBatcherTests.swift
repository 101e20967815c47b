import PlumDrivers
import PlumHardware
import PlumProtocol
import Testing

@testable import PlumStation

@Suite("RAW reports batch raw samples")
struct RawBatcherTests {
    private func sample(_ raw: Int32, at nanoseconds: UInt64) -> Sample {
        Sample(raw: raw, signal: Double(raw), time: MonotonicInstant(nanoseconds: nanoseconds))
    }

    @Test("a batch closes at its sample limit, in order, and the next starts empty")
    func limit() {
        var batcher = RawBatcher(limit: 4, window: 1_000_000_000)
        var reports: [RawReport] = []
        for index in 0..<9 {
            let time = 1_000 + UInt64(index) * 12_500_000
            if let report = batcher.add(sample(Int32(index), at: time), time: Double(index), sensor: "pan") {
                reports.append(report)
            }
        }
        #expect(reports.map(\.raw) == [[0, 1, 2, 3], [4, 5, 6, 7]], "two full batches of four; the ninth waits")
        #expect(reports.map(\.times) == [[0, 1, 2, 3], [4, 5, 6, 7]], "each code with its own time")
        #expect(reports.allSatisfy { $0.sensor == "pan" }, "the batches name their sensor")
    }

    @Test("a slow sensor's batch closes once its window of sample time has passed")
    func window() {
        // 10 SPS: 100 ms apart, so a 250 ms window closes on the fourth sample (300 ms after the first).
        var batcher = RawBatcher(limit: 16, window: 250_000_000)
        var closed: [Int] = []
        for index in 0..<8 {
            let time = 5_000_000_000 + UInt64(index) * 100_000_000
            if let report = batcher.add(sample(Int32(index), at: time), time: 0, sensor: "slow") {
                closed.append(report.raw.count)
            }
        }
        #expect(closed == [4, 4], "each batch spans 300 ms of samples, past the 250 ms window")
    }
}
