import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlumClient
import PlumHistory
import PlumProtocol
import PlumTestSupport
import PlumWeb
import ServiceLifecycle
import Testing

/// The daemon's ITEM and SESSION reports, from its socket through the feed into a real store,
/// and out of `GET /api/history?series=items|sessions`.
@Suite("Items and sessions in the history", .timeLimit(.minutes(1)))
struct HistoryItemsRouteTests {
    static let start = 1_795_388_100.0

    static func itemLine(_ seq: Int, item: Int?, event: String = "placed", grams: Double, at time: Double) -> String {
        let number = item.map(String.init) ?? "null"
        let divisions = Int((grams * 10).rounded())
        let (gross, band) = event == "placed" ? (grams, #","weight_class":"large""#) : (0, "")
        return #"{"class":"ITEM","sensor":"left","seq":\#(seq),"item":\#(number),"event":"\#(event)","#
            + #""grams":\#(grams),"divisions":\#(divisions),"gross_after":\#(gross),"division":0.1,"#
            + #""time":\#(time),"flags":[]\#(band)}"#
    }

    static func sessionLine(_ action: String, count: Int, stopped: String? = nil) -> String {
        let stop = stopped.map { #""\#($0)""# } ?? "null"
        return #"{"class":"SESSION","action":"\#(action)","ok":true,"message":"session crate-12","#
            + #""sessions":[{"name":"crate-12","sensor":"left","started":"2026-11-22T22:55:00Z","stopped":\#(stop),"#
            + #""division":0.1,"count":\#(count),"total":\#(Double(count) * 87.3),"mean":87.3,"min":87.3,"#
            + #""max":87.3,"heaviest_item":1,"std_dev":null,"classes":[{"name":"small","count":0},"#
            + #"{"name":"large","count":\#(count)}],"unclassified":0}]}"#
    }

    @Test("ITEM and SESSION from the daemon are stored once, across a reconnect, and exported as CSV and JSON")
    func fromTheDaemon() async throws {
        let fixture = try WebTestFixture(now: Self.start + 600)
        let keeper = HistoryKeeper(store: fixture.history, retentionDays: 90, batching: .immediate)
        let feed = DaemonFeed(
            link: DaemonLink(socketPath: fixture.daemon.path, backOff: BackOff(first: .milliseconds(20))),
            board: fixture.board, history: keeper, logger: Logger(label: "test"), devicesInterval: .seconds(60))
        let group = ServiceGroup(services: [feed], logger: Logger(label: "test"))
        let window = HistoryWindow(since: 0, until: Self.start + 600)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await waitFor("the feed to watch") { fixture.daemon.watches.count == 1 }
            fixture.daemon.push(Self.sessionLine("start", count: 0))
            fixture.daemon.push(Self.itemLine(1, item: 1, grams: 87.3, at: Self.start + 3.25))
            fixture.daemon.push(Self.sessionLine("item", count: 1))
            fixture.daemon.push(Self.itemLine(2, item: 1, event: "removed", grams: 87.3, at: Self.start + 6.5))
            try await waitFor("two items") { try fixture.history.items(sensor: nil, in: window).count == 2 }
            // The daemon goes away and comes back; the web reconnects and sees the first item again.
            fixture.daemon.stop()
            try fixture.daemon.start()
            try await waitFor("the feed to watch again") {
                let watched = fixture.daemon.requests.filter { if case .watch = $0 { true } else { false } }
                return watched.count == 2 && fixture.daemon.watches.count == 1
            }
            fixture.daemon.push(Self.itemLine(1, item: 1, grams: 87.3, at: Self.start + 3.25))
            fixture.daemon.push(Self.sessionLine("stop", count: 1, stopped: "2026-11-22T22:56:00Z"))
            try await waitFor("the stop") {
                try fixture.history.sessions(sensor: "left", in: window).first?.stopped == Self.start + 60
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let (unwritten, failure) = (await keeper.unwritten, await keeper.lastFailure)
        #expect(unwritten == 0 && failure == nil, "everything written: \(failure ?? "")")
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/api/history?series=items&since=\(Int(Self.start))", method: .get) {
                #expect($0.status == .ok)
                #expect(
                    String(buffer: $0.body) == """
                        time,sensor,seq,item,event,grams,gross_after,class,flags,session
                        2026-11-22T22:55:03Z,left,1,1,placed,87.300,87.300,large,,crate-12
                        2026-11-22T22:55:06Z,left,2,1,removed,87.300,0.000,,,

                        """, "each item once, the placed one in its session")
            }
            try await client.execute(uri: "/api/history?series=sessions&format=json&since=1d", method: .get) {
                let rows = try JSONDecoder().decode([SessionRow].self, from: Data(buffer: $0.body))
                #expect(rows.count == 1, "one row per session, its latest figures")
                #expect(rows.first?.name == "crate-12" && rows.first?.stopped == Self.start + 60)
                #expect(rows.first?.count == 1 && rows.first?.total == 87.3)
                #expect(rows.first?.classes == [.init(name: "small", count: 0), .init(name: "large", count: 1)])
            }
        }
    }

    @Test("items page like the other series, and a wrong series says which are known")
    func pagesAndErrors() async throws {
        let fixture = try WebTestFixture(now: Self.start + 86_400)
        let items = (0..<2_500).map { index in
            ItemRecord(
                sensor: index % 2 == 0 ? "left" : "right", sequence: index / 2 + 1, item: index / 2 + 1,
                event: "placed", grams: 50, grossAfter: 50, time: Self.start + Double(index / 2))
        }
        try fixture.history.append(stable: [], minutes: [], items: items)
        try await fixture.application().test(.live) { client in
            var uri: String? = "/api/history?series=items&since=0&limit=1000"
            var rows: [Substring] = []
            while let next = uri {
                uri = try await client.execute(uri: next, method: .get) { response in
                    let lines = String(buffer: response.body).split(separator: "\n")
                    #expect(lines.first == "time,sensor,seq,item,event,grams,gross_after,class,flags,session")
                    #expect(lines.count - 1 <= 1000, "a page holds at most limit rows")
                    rows += lines.dropFirst()
                    return HistoryPagingTests.nextLink(response.headers)
                }
            }
            #expect(rows.count == 2_500, "every item once over the pages")
            #expect(Set(rows).count == 2_500)
            try await client.execute(uri: "/api/history?series=items&sensor=right&since=0&limit=5", method: .get) {
                let lines = String(buffer: $0.body).split(separator: "\n").dropFirst()
                #expect(lines.count == 5 && lines.allSatisfy { $0.contains(",right,") })
                let next = HistoryPagingTests.nextLink($0.headers)
                #expect(next?.contains("series=items&format=csv&sensor=right") == true, "the next page keeps them")
            }
            try await client.execute(uri: "/api/history?series=fruit", method: .get) {
                #expect($0.status == .badRequest)
                #expect(String(buffer: $0.body).contains("minutes or stable or items or sessions"))
            }
            try await client.execute(uri: "/api/history?series=sessions&until=soon", method: .get) {
                #expect($0.status == .badRequest, "the same time rules as the other series")
            }
        }
    }
}

/// A row of the sessions JSON, the fields the test looks at.
private struct SessionRow: Decodable {
    struct Band: Decodable, Equatable {
        var name: String
        var count: Int
    }

    var name: String
    var stopped: Double?
    var count: Int
    var total: Double
    var classes: [Band]

    enum CodingKeys: String, CodingKey {
        case name, count, total, classes
        case stopped = "stopped_epoch"
    }
}
