import PlumCore
import PlumProtocol
import Testing

@testable import PlumStation

@Suite("Piece counting on a channel: a reference from a stable load, then the count in every WEIGHT")
struct SensorChannelCountingTests {
    static func reply(_ report: Report) -> CountReply? { if case .count(let reply) = report { reply } else { nil } }

    @Test("10 pieces of 2.5 g: 50 g counts 20, 51.5 g is ambiguous at 20.6, the empty pan none, and stop ends it")
    func counts() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        bench.feed(25)
        let reference = try #require(Self.reply(bench.channel.count(CountRequest(sensor: "pan", pieces: 10))))
        #expect(reference.ok && reference.pieces == 10 && reference.warning == nil, "\(reference)")
        #expect(abs((reference.unit ?? 0) - 2.5) < 0.002, "one piece is 2.5 g: \(reference.message)")
        let twenty = try #require(bench.feed(50).last?.weight?.report)
        #expect(twenty.count == 20 && twenty.countRatio == nil, "\(String(describing: twenty.count))")
        let odd = try #require(bench.feed(51.5).last?.weight?.report)
        #expect(odd.count == nil && odd.countRatio == 20.6, "51.5 / 2.5 = 20.6: \(String(describing: odd.countRatio))")
        // The empty pan is below Min (20 d, 2 g): no count, and the report says why.
        let empty = try #require(bench.feed(0).last?.weight?.report)
        #expect(empty.count == nil && empty.withheld == "the pan is empty", "\(empty)")
        let stopped = try #require(Self.reply(bench.channel.count(CountRequest(sensor: "pan"))))
        #expect(stopped.ok && stopped.message.contains("counting stopped"))
        let after = try #require(bench.feed(50, count: 2).last?.weight?.report)
        #expect(after.count == nil && after.countRatio == nil, "no count once stopped")
    }

    @Test("a moving load is refused as notStable; a piece under 10 d is taken with a warning")
    func refusalsAndWarning() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        bench.feed(40, count: 2)
        let moving = try #require(Self.reply(bench.channel.count(CountRequest(sensor: "pan", pieces: 8))))
        #expect(!moving.ok && moving.reason == "notStable" && moving.message.contains("keep the 8 pieces still"))
        bench.feed(3)
        let small = try #require(Self.reply(bench.channel.count(CountRequest(sensor: "pan", pieces: 10))))
        #expect(small.ok && small.warning?.contains("under 10 d") == true, "0.3 g is 3 d: \(small.message)")
        #expect(small.message.contains("counts may be off by one"), "\(small.message)")
    }

    @Test("with optimize, a count of twice the reference becomes the reference once, and the WEIGHT says so")
    func optimises() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        bench.feed(12.5)
        let request = CountRequest(sensor: "pan", pieces: 5, optimize: true)
        let reference = try #require(Self.reply(bench.channel.count(request)))
        #expect(reference.ok, "\(reference)")
        // 12 pieces of 2.5 g: 30.0 g, 12.0 of the reference's pieces.
        let outputs = bench.feed(30)
        let updated = outputs.filter { $0.weight?.report.countReferenceUpdated == true }
        #expect(updated.count == 1, "updated on \(updated.count) readings")
        #expect(bench.channel.counter?.referencePieces == 12)
        #expect(outputs.last?.weight?.report.count == 12)
    }
}
