import PlumCore
import PlumTestThreads
import Testing

@testable import PlumStation

/// Zero tracking's moves reach the state directory at most once per
/// ``SensorChannel/trackedZeroSaveInterval``: an SD card's writes are counted, and a drifting
/// cell had the daemon saving every few seconds. A zero or tare someone makes is still saved at
/// once.
@Suite("Zero tracking's saves: at most one per interval, a person's tare at once", .ownThreads)
struct TrackedZeroSaveTests {
    /// Feeds an empty pan whose zero drifts by `gramsPerSecond` for `seconds`, saving as the
    /// station does whenever the channel asks; the seconds (from the start) of each save.
    static func drift(
        _ bench: inout ChannelBench, from start: Double, gramsPerSecond: Double, seconds: Int
    ) -> [Double] {
        var saves: [Double] = []
        let first = bench.index
        for step in 0..<(seconds * 80) {
            _ = bench.take(start + gramsPerSecond * Double(step) / 80)
            if bench.channel.zeroTareToSave {
                bench.channel.zeroTareToSave = false
                bench.channel.engine.markZeroTareSaved()
                saves.append(Double(bench.index - first) / 80)
            }
        }
        return saves
    }

    @Test("a zero drifting a division every 50 s for 62 minutes is saved three times, not some 70")
    func driftSavedPerInterval() throws {
        var bench = try ChannelBench()
        bench.feed(0, count: 160)
        // The zero someone sets on the empty pan is saved at once, and begins the saved state.
        guard case .command(let zero) = bench.channel.command(.zero), zero.ok else {
            Issue.record("the empty pan could not be zeroed")
            return
        }
        #expect(bench.channel.zeroTareToSave, "a person's zero is saved at once")
        bench.channel.zeroTareToSave = false
        bench.channel.engine.markZeroTareSaved()
        let zeroBefore = bench.channel.engine.zeroOffset
        let saves = Self.drift(&bench, from: 0, gramsPerSecond: 0.002, seconds: 3720)
        let tracked = bench.channel.engine.zeroOffset - zeroBefore
        #expect(tracked > 5, "tracking followed the drift: \(tracked) g")
        let interval = Double(SensorChannel.trackedZeroSaveInterval) / 1e9
        #expect(saves.count == 3, "the first move, then one per \(interval) s: \(saves)")
        let gaps = zip(saves.dropFirst(), saves).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= interval }, "at most one save per interval: \(gaps)")
        // Within an interval, a person's tare is not held back.
        bench.feed(0.002 * 3720 + 40, count: 160)
        guard case .command(let tare) = bench.channel.command(.tare), tare.ok else {
            Issue.record("the 40 g could not be tared")
            return
        }
        #expect(bench.channel.zeroTareToSave, "a person's tare is saved at once, inside the interval")
    }
}
