import PlumProtocol
import PlumWeb
import Testing

/// What the board passes on of items, sessions, piece counts and check verdicts: the daemon's
/// own fields, typed for the page, and the recent items for a browser that comes later.
@Suite("Item, session, count and check frames for the page")
struct ItemFramesTests {
    static func item(_ sequence: Int, event: String = "placed", grams: String = "87.3") throws -> Report {
        let divisions = Int((Double(grams)! * 10).rounded())
        return try Report.decode(
            Substring(
                #"{"class":"ITEM","sensor":"left","seq":\#(sequence),"item":\#(sequence),"event":"\#(event)","#
                    + #""grams":\#(grams),"divisions":\#(divisions),"gross_after":\#(grams),"division":0.1,"#
                    + #""time":1795388111.25,"flags":["stacked"],"weight_class":"large"}"#))
    }

    @Test("a WEIGHT's count, count_ratio and check reach the page as the daemon sent them")
    func countAndCheck() async throws {
        let board = PanBoard()
        let (_, frames, _) = await board.subscribe()
        var iterator = frames.makeAsyncIterator()
        let counted = weightLine("left", grams: 120).replacing(
            #""calibrated":true}"#, with: #""calibrated":true,"count":12,"check":"ok"}"#)
        await board.apply(try Report.decode(Substring(counted)))
        let first = try #require(await iterator.next())
        #expect(first.contains(#""count":12"#) && first.contains(#""check":"ok""#), "\(first)")
        #expect(first.contains(#""type":"weight""#), "\(first)")
        let ambiguous = weightLine("left", grams: 124).replacing(
            #""calibrated":true}"#, with: #""calibrated":true,"count_ratio":12.4,"check":"over"}"#)
        await board.apply(try Report.decode(Substring(ambiguous)))
        let second = try #require(await iterator.next())
        #expect(second.contains(#""count_ratio":12.4"#) && !second.contains(#""count":"#), "\(second)")
        #expect(second.contains(#""check":"over""#), "\(second)")
    }

    @Test("ITEM and SESSION reports go to every browser, typed item and session, fields unchanged")
    func itemAndSessionFrames() async throws {
        let board = PanBoard()
        let (_, frames, _) = await board.subscribe()
        var iterator = frames.makeAsyncIterator()
        await board.apply(try Self.item(3))
        let item = try #require(await iterator.next())
        for field in [
            #""class":"ITEM""#, #""seq":3"#, #""event":"placed""#, #""grams":87.3"#, #""flags":["stacked"]"#,
            #""weight_class":"large""#, #""time":1795388111.25"#, #""type":"item""#
        ] {
            #expect(item.contains(field), "\(field) in \(item)")
        }
        let news = SessionReport(
            action: "item", ok: true, message: "item 1 of session crate-1: 87.3 g",
            sessions: [
                SessionSummary(
                    name: "crate-1", sensor: "left", started: "2026-11-27T06:00:00Z", division: 0.1, count: 1,
                    total: 87.3, classes: [.init(name: "large", count: 1)])
            ])
        await board.apply(.session(news))
        let session = try #require(await iterator.next())
        #expect(session.hasPrefix(#"{"class":"SESSION","action":"item","ok":true"#), "\(session)")
        #expect(session.contains(#""classes":[{"name":"large","count":1}]"#), "\(session)")
        #expect(session.hasSuffix(#","type":"session"}"#), "\(session)")
    }

    @Test("a browser that comes later gets the last 50 item events, oldest first, after the pans")
    func recentItemsInSnapshot() async throws {
        let board = PanBoard()
        await board.apply(try weight("left", grams: 10))
        for sequence in 1...60 {
            await board.apply(try Self.item(sequence, event: sequence % 2 == 0 ? "removed" : "placed"))
        }
        let (snapshot, _, _) = await board.subscribe()
        let items = snapshot.filter { $0.contains(#""type":"item""#) }
        #expect(items.count == PanBoard.recentItems, "\(items.count) item frames")
        #expect(items.first?.contains(#""seq":11,"#) == true && items.last?.contains(#""seq":60,"#) == true)
        #expect(snapshot.firstIndex { $0.contains(#""type":"weight""#) }! < snapshot.firstIndex(of: items[0])!)
    }
}
