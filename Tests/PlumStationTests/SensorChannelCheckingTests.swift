import PlumCore
import PlumProtocol
import Testing

@testable import PlumStation

@Suite("Check-weighing on a channel: under, ok or over on every stable WEIGHT, and the cue once per ok")
struct SensorChannelCheckingTests {
    static func reply(_ report: Report) -> CheckReply? { if case .check(let reply) = report { reply } else { nil } }

    @Test("100 g −2/+5: 97.9 under, 98.0 and 105.0 ok (limits included), 105.1 over; moving has no verdict")
    func verdicts() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        let set = try #require(
            Self.reply(bench.channel.check(CheckRequest(sensor: "pan", target: 100, minus: 2, plus: 5))))
        #expect(set.ok && set.message.contains("98.0 g to 105.0 g is ok"), "\(set.message)")
        var verdicts: [String?] = []
        for grams in [97.9, 98.0, 105.0, 105.1] { verdicts.append(bench.feed(grams).last?.weight?.report.check) }
        #expect(verdicts == ["under", "ok", "ok", "over"], "\(verdicts)")
        let moving = bench.feed(60, count: 2).map { $0.weight?.report }
        #expect(moving.allSatisfy { $0?.stable == false && $0?.check == nil }, "no verdict while the load moves")
        let stopped = try #require(Self.reply(bench.channel.check(CheckRequest(sensor: "pan"))))
        #expect(stopped.ok && bench.feed(100).last?.weight?.report.check == nil, "no verdict once stopped")
    }

    @Test("with cue, each turn to ok pulses the cue once; staying ok does not repeat it")
    func cueOnOk() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        _ = bench.channel.check(CheckRequest(sensor: "pan", target: 50, minus: 1, plus: 1, cue: true))
        var pulses = 0
        for grams in [50, 50.5, 40, 49.5] as [Double] {
            pulses += bench.feed(grams).flatMap(\.cues).filter { $0 == .alert(name: "check-ok") }.count
        }
        #expect(pulses == 2, "ok, still ok, under, ok again: two pulses, not \(pulses)")
    }

    @Test("a target of 0 g is refused with the engine's reason")
    func refused() throws {
        var bench = try ChannelBench()
        let reply = try #require(Self.reply(bench.channel.check(CheckRequest(sensor: "pan", target: 0))))
        #expect(!reply.ok && reply.reason == "invalidWeight" && reply.message.contains("set a target above 0 g"))
    }

    @Test("a lower limit below Min is refused; the empty pan gets no verdict but why; an overload is over")
    func minimumWeightAndOverload() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        // Min is 20 d of 0.1 g, 2 g: a target of 1.5 g − 1.5 g would pass the empty pan.
        let low = try #require(
            Self.reply(bench.channel.check(CheckRequest(sensor: "pan", target: 1.5, minus: 1.5, plus: 1))))
        #expect(!low.ok && low.reason == "invalidWeight", "\(low)")
        #expect(low.message.contains("below the minimum weight 2 g") && low.message.contains("2 g or more"), "\(low)")
        let set = try #require(
            Self.reply(bench.channel.check(CheckRequest(sensor: "pan", target: 100, minus: 2, plus: 5))))
        #expect(set.ok)
        let empty = try #require(bench.feed(0).last?.weight?.report)
        #expect(empty.check == nil && empty.withheld == "the pan is empty", "\(empty)")
        let edge = try #require(bench.feed(98.0).last?.weight?.report)
        #expect(edge.check == "ok" && edge.borderline, "98.0 g is on the lower limit: \(edge)")
        let middle = try #require(bench.feed(101.0).last?.weight?.report)
        #expect(middle.check == "ok" && !middle.borderline)
        // The bench's Max is 500 g, and a load past Max + 9 d an overload.
        let over = try #require(bench.feed(520, count: 20).last?.weight?.report)
        #expect(over.overload && over.check == "over", "\(over)")
    }
}
