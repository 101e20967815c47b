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

    /// `time,sensor,min,mean,max,samples`, one line per pan and minute, oldest first.
    package static func csv(_ minutes: [MinuteSummary]) -> String {
        csvHeader(.minutes) + csvLines(minutes)
    }

    /// `time,sensor,grams`, one line per stable reading, oldest first.
    package static func csv(_ readings: [StableReading]) -> String {
        csvHeader(.stable) + csvLines(readings)
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

    /// The CSV's lines for these minutes, without the header: a chunk of a streamed export.
    package static func csvLines(_ minutes: [MinuteSummary]) -> String {
        var text = ""
        for row in minutes {
            text += "\(HistoryWindow.isoText(Double(row.minute))),\(field(row.sensor)),"
            text += "\(grams(row.min)),\(grams(row.mean)),\(grams(row.max)),\(row.samples)\n"
        }
        return text
    }

    /// The CSV's lines for these readings, without the header.
    package static func csvLines(_ readings: [StableReading]) -> String {
        var text = ""
        for row in readings {
            text += "\(HistoryWindow.isoText(row.time)),\(field(row.sensor)),\(grams(row.grams))\n"
        }
        return text
    }

    /// A JSON array of objects with the same fields as the CSV, times as ISO 8601 and as
    /// `epoch` seconds.
    package static func json(_ minutes: [MinuteSummary]) -> String {
        "[" + jsonObjects(minutes) + "]\n"
    }

    package static func json(_ readings: [StableReading]) -> String {
        "[" + jsonObjects(readings) + "]\n"
    }

    /// The array's objects for these minutes, comma-separated, without the brackets: a chunk of
    /// a streamed export (the caller puts a comma between chunks).
    package static func jsonObjects(_ minutes: [MinuteSummary]) -> String {
        let encoder = makeEncoder()
        return minutes.map {
            encode(
                encoder,
                MinuteRow(
                    time: HistoryWindow.isoText(Double($0.minute)), epoch: Double($0.minute), sensor: $0.sensor,
                    min: $0.min, mean: $0.mean, max: $0.max, samples: $0.samples))
        }.joined(separator: ",")
    }

    package static func jsonObjects(_ readings: [StableReading]) -> String {
        let encoder = makeEncoder()
        return readings.map {
            encode(
                encoder,
                StableRow(time: HistoryWindow.isoText($0.time), epoch: $0.time, sensor: $0.sensor, grams: $0.grams))
        }.joined(separator: ",")
    }

    private struct MinuteRow: Encodable {
        var time: String, epoch: Double, sensor: String, min: Double, mean: Double, max: Double, samples: Int
    }

    private struct StableRow: Encodable {
        var time: String, epoch: Double, sensor: String, grams: Double
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
