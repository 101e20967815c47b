import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlumHistory
import PlumWeb
import Testing

/// `GET /api/history` in bounded pages; the memory bound itself is measured by
/// Tests/web-load/history-memory.sh (a year of history, ten exports at once).
@Suite("History export in pages", .timeLimit(.minutes(1)))
struct HistoryPagingTests {
    /// Two pans, 1,250 minutes each: 2,500 rows, more than two pages of 1,000.
    static func seed(_ store: HistoryStore, start: Int64) throws {
        let minutes = (0..<1_250).flatMap { index in
            ["left", "right"].map { pan in
                MinuteSummary(
                    sensor: pan, minute: start + Int64(index) * 60, min: Double(index), mean: Double(index),
                    max: Double(index), samples: 6)
            }
        }
        try store.append(stable: [], minutes: minutes)
    }

    @Test("since=0 is answered a page at a time, each naming the next; together they hold every row once")
    func pages() async throws {
        let fixture = try WebTestFixture()
        let start: Int64 = 1_795_000_020
        try Self.seed(fixture.history, start: start)
        try await fixture.application().test(.live) { client in
            var uri: String? = "/api/history?since=0&limit=1000"
            var rows: [Substring] = []
            var pages = 0
            while let next = uri {
                uri = try await client.execute(uri: next, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "no-store")
                    let lines = String(buffer: response.body).split(separator: "\n")
                    #expect(lines.first == "time,sensor,min,mean,max,samples", "each page is a whole CSV")
                    #expect(lines.count - 1 <= 1000, "a page holds at most limit rows: \(lines.count - 1)")
                    rows += lines.dropFirst()
                    return Self.nextLink(response.headers)
                }
                pages += 1
            }
            #expect(pages == 3, "2,500 rows in pages of at most 1,000")
            let expected = (0..<1_250).flatMap { index in
                ["left", "right"].map { "\(HistoryWindow.isoText(Double(start) + Double(index) * 60)),\($0)" }
            }
            #expect(
                rows.map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == expected,
                "every row once, oldest first, no pan's minute split from the other's")
            try await client.execute(uri: "/api/history?since=0&limit=1000000", method: .get) {
                #expect($0.status == .badRequest, "a page may not be made larger than the cap")
            }
        }
    }

    @Test("a JSON page is one valid array, however many chunks it was streamed in")
    func jsonPage() async throws {
        let fixture = try WebTestFixture()
        try Self.seed(fixture.history, start: 1_795_000_020)
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/api/history?since=0&format=json&limit=2400", method: .get) { response in
                struct Row: Decodable { var sensor: String, epoch: Double }
                let rows = try JSONDecoder().decode([Row].self, from: Data(buffer: response.body))
                #expect(rows.count == 2400, "three chunks, one array")
                #expect(
                    Self.nextLink(response.headers)?.contains("format=json") == true, "the next page keeps the format")
            }
        }
    }

    /// The target of `Link: <…>; rel="next"`, if any.
    static func nextLink(_ headers: HTTPFields) -> String? {
        guard let link = headers[HTTPField.Name("Link")!], link.hasSuffix(#"rel="next""#),
            let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">")
        else { return nil }
        return String(link[link.index(after: open)..<close])
    }
}
