import FoundationEssentials

/// A row of one series as the export writes it. Each series says its fields once (minutes and
/// readings here, items and sessions in HistoryExport+Items.swift); the header, the array and
/// the chunks are ``HistoryExport``'s, the same for all four.
package protocol HistoryExportRow {
    /// The series whose ``HistoryExport/csvHeader(_:)`` names the fields.
    static var series: HistoryExport.Series { get }
    /// The row's CSV line, ending in a newline.
    var csvLine: String { get }
    /// The row's JSON object, encoded with `encoder` (``HistoryExport/makeEncoder()``).
    func jsonObject(_ encoder: JSONEncoder) -> String
}

/// `time,sensor,min,mean,max,samples`, one line per pan and minute.
extension MinuteSummary: HistoryExportRow {
    package static var series: HistoryExport.Series { .minutes }

    package var csvLine: String {
        "\(HistoryWindow.isoText(Double(minute))),\(HistoryExport.field(sensor)),"
            + "\(HistoryExport.grams(min)),\(HistoryExport.grams(mean)),\(HistoryExport.grams(max)),\(samples)\n"
    }

    package func jsonObject(_ encoder: JSONEncoder) -> String {
        HistoryExport.encode(
            encoder,
            MinuteRow(
                time: HistoryWindow.isoText(Double(minute)), epoch: Double(minute), sensor: sensor, min: min,
                mean: mean, max: max, samples: samples))
    }
}

/// `time,sensor,grams`, one line per stable reading.
extension StableReading: HistoryExportRow {
    package static var series: HistoryExport.Series { .stable }

    package var csvLine: String {
        "\(HistoryWindow.isoText(time)),\(HistoryExport.field(sensor)),\(HistoryExport.grams(grams))\n"
    }

    package func jsonObject(_ encoder: JSONEncoder) -> String {
        HistoryExport.encode(
            encoder, StableRow(time: HistoryWindow.isoText(time), epoch: time, sensor: sensor, grams: grams))
    }
}

private struct MinuteRow: Encodable {
    var time: String, epoch: Double, sensor: String, min: Double, mean: Double, max: Double, samples: Int
}

private struct StableRow: Encodable {
    var time: String, epoch: Double, sensor: String, grams: Double
}
