import FoundationEssentials
internal import HTTPTypes
internal import Hummingbird
internal import PlumHistory

/// `GET /api/history`: the history as CSV or JSON, in pages of at most ``maxRows`` rows, each
/// streamed in chunks read on ``BlockingWork/history``.
///
/// The route needs no login (the history is part of the read-only view), so anyone who can
/// reach the page can ask for everything since 1970 as often as they like. Without bounds a
/// year of one pan (525,600 minutes) was read into memory three times (rows, structs, text) per
/// request, on the shared threads. Now a request costs one chunk of memory however long its
/// window: the page ends after ``maxRows`` rows (or `limit`) and says where the next one starts
/// with `Link: <…>; rel="next"` (RFC 8288, as GitHub's API pages), and the rows go out as they
/// are read.
///
/// Placements, items and session figures wait in memory up to `[web] history_commit_seconds`
/// before they are written (``HistoryKeeper``); a read of those series writes them first, so it
/// is never behind the scale. Minute summaries wait up to 15 minutes; the page's chart asks for
/// them every minute, and a commit for each ask would undo the batching, so the last page of a
/// read of the minutes has the closed summaries still waiting added after the file's rows.
struct HistoryRoute: Sendable {
    let store: HistoryStore
    /// What records the history; nil when the store is served alone (tests, a read-only view).
    var keeper: HistoryKeeper?
    let now: @Sendable () -> Double

    /// Rows in a page at most: about 3 MB of CSV, a month of one pan's minutes.
    static let maxRows = 50_000
    /// Rows read per database read, and so held at once.
    static let chunkRows = 1_000

    func response(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let format = try Self.choice(query.get("format") ?? "csv", HistoryExport.Format.self, name: "format")
        let series = try Self.choice(query.get("series") ?? "minutes", HistoryExport.Series.self, name: "series")
        let window: HistoryWindow
        do {
            window = try HistoryWindow.parse(since: query.get("since"), until: query.get("until"), now: now())
        } catch {
            throw HTTPError(.badRequest, message: error.message)
        }
        let sensor = query.get("sensor").flatMap { $0.isEmpty ? nil : $0 }
        var rows = Self.maxRows
        if let text = query.get("limit") {
            guard let limit = Int(text), (1...Self.maxRows).contains(limit) else {
                throw HTTPError(.badRequest, message: "limit=\(text) must be a number of rows, 1 to \(Self.maxRows)")
            }
            rows = limit
        }
        // Taken before the file is read: a summary written meanwhile is then in the file's rows,
        // and left out here by its key (below), so none is missed and none doubled.
        let waiting: [MinuteSummary]
        if series == .minutes {
            waiting = await keeper?.waitingMinutes(sensor: sensor, in: window) ?? []
        } else {
            waiting = []
            await keeper?.writeWaiting()
        }
        let store = self.store
        let pageRows = rows
        let page = try await Self.offThread { () throws(HistoryError) in
            try HistoryPage(store, series: series, sensor: sensor, window: window, rows: pageRows)
        }
        var headers: HTTPFields = [
            .contentType: format == .csv ? "text/csv; charset=utf-8" : "application/json", .cacheControl: "no-store"
        ]
        if let next = page.nextSince {
            let uri = Self.uri(series, format, sensor, since: next, until: window.until, rows)
            headers[.link] = "<\(uri)>; rel=\"next\""
        }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: format == .csv ? HistoryExport.csvHeader(series) : "["))
                var cursor: HistoryPage.Cursor?
                var first = true
                var sent = 0
                while true {
                    let after = cursor
                    let (text, count, next) = try await Self.offThread { () throws(HistoryError) in
                        try Self.chunk(page, store, format, after: after)
                    }
                    if count > 0 {
                        try await writer.write(ByteBuffer(string: (first || format == .csv ? "" : ",") + text))
                        first = false
                    }
                    sent += count
                    cursor = next ?? cursor
                    if count < Self.chunkRows { break }
                }
                let newer = page.nextSince == nil ? Self.after(cursor, waiting).prefix(max(0, pageRows - sent)) : []
                if !newer.isEmpty {
                    let rows = Array(newer)
                    let text = format == .csv ? HistoryExport.csvLines(rows) : HistoryExport.jsonObjects(rows)
                    try await writer.write(ByteBuffer(string: (first || format == .csv ? "" : ",") + text))
                }
                if format == .json { try await writer.write(ByteBuffer(string: "]\n")) }
                try await writer.finish(nil)
            })
    }

    /// The waiting summaries after the last row read from the file (by minute, then pan).
    private static func after(_ cursor: HistoryPage.Cursor?, _ waiting: [MinuteSummary]) -> [MinuteSummary] {
        guard let cursor, let pan = cursor.sensor else { return waiting }
        return waiting.filter { (Double($0.minute), $0.sensor) > (cursor.time, pan) }
    }

    /// One chunk after `cursor`, as text: the CSV lines or the JSON objects.
    private static func chunk(
        _ page: HistoryPage, _ store: HistoryStore, _ format: HistoryExport.Format, after cursor: HistoryPage.Cursor?
    ) throws(HistoryError) -> (String, Int, HistoryPage.Cursor?) {
        switch page.series {
        case .minutes: try text(page.minutes(store, after: cursor, limit: chunkRows), format)
        case .stable: try text(page.stableReadings(store, after: cursor, limit: chunkRows), format)
        case .items: try text(page.items(store, after: cursor, limit: chunkRows), format)
        case .sessions: try text(page.sessions(store, after: cursor, limit: chunkRows), format)
        }
    }

    /// A chunk's rows as the CSV lines or the JSON objects, with their count and cursor.
    private static func text<Row: HistoryExportRow>(
        _ chunk: (rows: [Row], cursor: HistoryPage.Cursor?), _ format: HistoryExport.Format
    ) -> (String, Int, HistoryPage.Cursor?) {
        let text = format == .csv ? HistoryExport.csvLines(chunk.rows) : HistoryExport.jsonObjects(chunk.rows)
        return (text, chunk.rows.count, chunk.cursor)
    }

    /// Runs a database read on the history threads; its error becomes a 500 that names it.
    private static func offThread<T: Sendable>(
        _ body: @escaping @Sendable () throws(HistoryError) -> T
    ) async throws -> T {
        let result = try await BlockingWork.history.runIfActive { () -> Result<T, HistoryError> in
            do throws(HistoryError) { return .success(try body()) } catch { return .failure(error) }
        }
        do {
            return try result.get()
        } catch {
            throw HTTPError(.internalServerError, message: error.message)
        }
    }

    /// The request for the next page.
    static func uri(
        _ series: HistoryExport.Series, _ format: HistoryExport.Format, _ sensor: String?, since: Double,
        until: Double, _ rows: Int
    ) -> String {
        var uri = "/api/history?series=\(series.rawValue)&format=\(format.rawValue)"
        if let sensor { uri += "&sensor=\(escape(sensor))" }
        return uri + "&since=\(number(since))&until=\(number(until))&limit=\(rows)"
    }

    /// A number of seconds as a query or a log line writes it: whole ones without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Percent-encodes all but letters, digits and `-._~` (RFC 3986's unreserved characters).
    private static func escape(_ text: String) -> String {
        text.utf8.map { byte in
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || "-._~".utf8.contains(byte)
            return unreserved
                ? String(UnicodeScalar(byte))
                : "%"
                    + String(byte, radix: 16, uppercase: true)
                    .leftPadded(to: 2)
        }.joined()
    }

    private static func choice<T: RawRepresentable & CaseIterable>(
        _ text: String, _: T.Type, name: String
    ) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: " or ")
            throw HTTPError(.badRequest, message: "\(name)=\(text) is not known; use \(allowed)")
        }
        return value
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

extension HTTPField.Name {
    /// RFC 8288's `Link`, which names the next page of the history.
    static let link = HTTPField.Name("Link")!
}
