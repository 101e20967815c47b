import FoundationEssentials

/// The series of the history as CSV or JSON, for `GET /api/history` and
/// `plumscale history`. One writer, so the web and the command line give the same bytes.
package enum HistoryExport {
    /// Which series: per-minute summaries (the default), stable readings, the daemon's item
    /// events, or its sessions (HistoryExport+Items.swift).
    package enum Series: String, Sendable, CaseIterable {
        case minutes, stable, items, sessions
    }

    package enum Format: String, Sendable, CaseIterable {
        case csv, json
    }

    /// The CSV of `rows`, header first: one line per row, oldest first (``HistoryExportRow``
    /// says the fields of each series).
    package static func csv<Row: HistoryExportRow>(_ rows: [Row]) -> String {
        csvHeader(Row.series) + csvLines(rows)
    }

    /// The CSV's first line for `series`.
    package static func csvHeader(_ series: Series) -> String {
        switch series {
        case .minutes: "time,sensor,min,mean,max,samples\n"
        case .stable: "time,sensor,grams\n"
        case .items: "time,sensor,seq,item,event,grams,gross_after,class,flags,session\n"
        case .sessions: "started,stopped,name,sensor,count,total,mean,min,max,std_dev,classes,unclassified\n"
        }
    }

    /// The CSV's lines for these rows, without the header: a chunk of a streamed export.
    package static func csvLines<Row: HistoryExportRow>(_ rows: [Row]) -> String {
        rows.map(\.csvLine).joined()
    }

    /// A JSON array of objects with the same fields as the CSV, times as ISO 8601 and as
    /// `epoch` seconds.
    package static func json<Row: HistoryExportRow>(_ rows: [Row]) -> String {
        "[" + jsonObjects(rows) + "]\n"
    }

    /// The array's objects for these rows, comma-separated, without the brackets: a chunk of
    /// a streamed export (the caller puts a comma between chunks).
    package static func jsonObjects<Row: HistoryExportRow>(_ rows: [Row]) -> String {
        let encoder = makeEncoder()
        return rows.map { $0.jsonObject(encoder) }.joined(separator: ",")
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func encode<T: Encodable>(_ encoder: JSONEncoder, _ value: T) -> String {
        // Encoding plain structs of strings and finite numbers cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Grams with three decimals: enough for any division, stable across platforms.
    static func grams(_ value: Double) -> String {
        let thousandths = (value * 1000).rounded()
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = Int64(abs(thousandths))
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// Sensor names are plain words in practice; quote anything a CSV reader could split.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
