import PlumCore
import PlumProtocol
import PlumTestSupport
import Testing

@testable import PlumStation

@Suite("A channel's items: each step between stable levels becomes one ITEM, classed, and a zero starts afresh")
struct SensorChannelItemTests {
    static let classes = SeededPlums.classes

    @Test("one at a time: a plum on is one placed ITEM with its class, off is its removed, the next a new item")
    func oneAtATime() throws {
        var bench = try ChannelBench(extra: Self.classes)
        var reports = bench.feed(0).flatMap(\.itemReports)
        let placed = bench.feed(87.3)
        reports += placed.flatMap(\.itemReports)
        reports += bench.feed(0).flatMap(\.itemReports)
        reports += bench.feed(34.9).flatMap(\.itemReports)
        #expect(reports.map(\.event) == ["placed", "removed", "placed"], "\(reports)")
        #expect(reports.map(\.sequence) == [1, 2, 3], "numbered without gaps")
        #expect(reports.map(\.item) == [1, 1, 2], "the removal ends item 1; the next is item 2")
        #expect(reports.map(\.divisions) == [873, 873, 349], "87.3 g and 34.9 g in 0.1 g divisions")
        #expect(reports.map(\.grams) == [87.3, 87.3, 34.9])
        #expect(reports.map(\.grossAfter) == [87.3, 0, 34.9])
        #expect(reports.map(\.weightClass) == ["large", nil, "small"], "34.9 g is below medium's 35 g")
        #expect(reports.allSatisfy { $0.sensor == "pan" && $0.division == 0.1 })
        #expect(reports.map(\.flags) == [[], [], ["borderline"]], "34.9 g is within 1 d of medium's 35 g")
        // The report's time is the wall-clock time of the sample that confirmed the level.
        let confirming = try #require(placed.firstIndex { !$0.items.isEmpty })
        #expect(reports[0].time == ChannelBench.wallTime(UInt64(80 + confirming + 1)), "\(reports[0].time)")
        #expect(placed.filter { !$0.items.isEmpty }.count == 1, "one event for one plum")
        // An item is data: its line is for `plumscaled --verbose`, not each weighing in the journal.
        let line = try #require(placed[confirming].log.first { $0.message.contains("item placed") })
        #expect(line.level == .debug && line.message == "pan: item placed 87.3 g", "\(line)")
    }

    @Test("accumulate from the file: each rise is an item, emptying the crate one removed with no item number")
    func accumulate() throws {
        var bench = try ChannelBench(extra: "item_mode = \"accumulate\"\nmin_step_divisions = 50\n")
        var reports: [ItemReport] = []
        for grams in [0, 20, 45, 47, 70, 0] as [Double] { reports += bench.feed(grams).flatMap(\.itemReports) }
        #expect(reports.map(\.event) == ["placed", "placed", "placed", "removed"], "\(reports)")
        // The 2 g leaf is under the 5 g step: no item, but the next plum is measured from it.
        #expect(reports.map(\.divisions) == [200, 250, 230, 700], "\(reports)")
        #expect(reports.map(\.item) == [1, 2, 3, nil], "a fall in accumulate cannot tell which plum went")
        #expect(reports.allSatisfy { $0.weightClass == nil }, "no [[class]], no class")
    }

    @Test("a tared bowl is retracted as a container: ITEM retracted, and the plum after it is its own weight")
    func tareRetractsTheBowl() throws {
        var bench = try ChannelBench(extra: Self.classes)
        var reports = bench.feed(0).flatMap(\.itemReports)
        reports += bench.feed(120.4).flatMap(\.itemReports)
        guard case .command(let tare) = bench.channel.command(.tare), tare.ok else {
            Issue.record("the tare was refused")
            return
        }
        reports += bench.feed(120.4).flatMap(\.itemReports)
        reports += bench.feed(120.4 + 50).flatMap(\.itemReports)
        #expect(reports.map(\.event) == ["placed", "retracted", "placed"], "\(reports)")
        #expect(reports.map(\.item) == [1, 1, 2])
        #expect(reports.map(\.divisions) == [1_204, 1_204, 500], "the bowl 120.4 g, then the plum 50.0 g")
        #expect(reports.last?.flags == [], "the plum is not stacked on the bowl")
        #expect(reports.last?.grossAfter == 170.4)
    }

    @Test("a zero moves the gross without a plum lifted: no removed ITEM, and the next plum weighs from the new zero")
    func zeroRebases() throws {
        var bench = try ChannelBench(extra: Self.classes)
        var reports = bench.feed(0).flatMap(\.itemReports)
        reports += bench.feed(5).flatMap(\.itemReports)
        #expect(reports.map(\.divisions) == [50], "5 g of crumbs is an item before the zero: \(reports)")
        guard case .command(let zero) = bench.channel.command(.zero), zero.ok else {
            Issue.record("the zero was refused")
            return
        }
        let afterZero = bench.feed(5).flatMap(\.itemReports)
        #expect(afterZero.isEmpty, "the gross fell by 5 g through the zero, not by a plum: \(afterZero)")
        let plum = bench.feed(65).flatMap(\.itemReports)
        #expect(plum.map(\.divisions) == [600] && plum.map(\.item) == [2], "60 g from the new zero: \(plum)")
        #expect(plum.map(\.weightClass) == ["large"] && plum.map(\.grossAfter) == [60])
    }

    @Test("an outage forgets the levels: a sensor back with the same load reports no step")
    func outageRebases() throws {
        var bench = try ChannelBench()
        var reports = bench.feed(0).flatMap(\.itemReports)
        reports += bench.feed(40).flatMap(\.itemReports)
        _ = bench.take(.fault(reason: "read failed: EIO"))
        reports += bench.feed(40).flatMap(\.itemReports)
        #expect(reports.map(\.event) == ["placed"], "one plum placed, nothing again after the outage: \(reports)")
    }
}
