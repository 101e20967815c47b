import FoundationEssentials

/// `time,sensor,seq,item,event,grams,gross_after,class,flags,session`, one line per item event;
/// an absent item number, class or session is an empty field, flags are separated by spaces.
/// The JSON object has the CSV's fields and `epoch` seconds; `item`, `class` and `session` are
/// left out when absent, `flags` is an array.
extension ItemRecord: HistoryExportRow {
    package static var series: HistoryExport.Series { .items }

    package var csvLine: String {
        var text = "\(HistoryWindow.isoText(time)),\(HistoryExport.field(sensor)),\(sequence),"
        text += "\(item.map(String.init) ?? ""),\(HistoryExport.field(event)),"
        text += "\(HistoryExport.grams(grams)),\(HistoryExport.grams(grossAfter)),"
        text += "\(HistoryExport.field(weightClass ?? "")),\(HistoryExport.field(flags.joined(separator: " "))),"
        return text + "\(HistoryExport.field(session ?? ""))\n"
    }

    package func jsonObject(_ encoder: JSONEncoder) -> String {
        HistoryExport.encode(
            encoder,
            ItemRow(
                time: HistoryWindow.isoText(time), epoch: time, sensor: sensor, seq: sequence, item: item,
                event: event, grams: grams, grossAfter: grossAfter, weightClass: weightClass, flags: flags,
                session: session))
    }
}

/// `started,stopped,name,sensor,count,total,mean,min,max,std_dev,classes,unclassified`, one line
/// per session by its start; `stopped` is empty while it runs, the figures the daemon leaves out
/// (no items, one item) are empty, `classes` is `small=3;large=1` in band order. The JSON object
/// has the CSV's fields with `started_epoch` and `stopped_epoch` seconds; `classes` an array of
/// `{"name","count"}`; `stopped` and the figures the daemon leaves out are absent.
extension SessionRecord: HistoryExportRow {
    package static var series: HistoryExport.Series { .sessions }

    package var csvLine: String {
        let bands = classes.map { "\($0.name)=\($0.count)" }.joined(separator: ";")
        var text = "\(HistoryWindow.isoText(started)),\(stopped.map(HistoryWindow.isoText) ?? ""),"
        text += "\(HistoryExport.field(name)),\(HistoryExport.field(sensor)),\(count),\(HistoryExport.grams(total)),"
        text += [mean, minimum, maximum, standardDeviation].map { $0.map(HistoryExport.grams) ?? "" }
            .joined(separator: ",")
        return text + ",\(HistoryExport.field(bands)),\(unclassified)\n"
    }

    package func jsonObject(_ encoder: JSONEncoder) -> String {
        HistoryExport.encode(
            encoder,
            SessionRow(
                started: HistoryWindow.isoText(started), startedEpoch: started,
                stopped: stopped.map(HistoryWindow.isoText), stoppedEpoch: stopped, name: name, sensor: sensor,
                count: count, total: total, mean: mean, min: minimum, max: maximum, stdDev: standardDeviation,
                classes: classes, unclassified: unclassified))
    }
}

private struct ItemRow: Encodable {
    var time: String, epoch: Double, sensor: String, seq: Int, item: Int?, event: String, grams: Double
    var grossAfter: Double, weightClass: String?, flags: [String], session: String?

    enum CodingKeys: String, CodingKey {
        case time, epoch, sensor, seq, item, event, grams, flags, session
        case grossAfter = "gross_after"
        case weightClass = "class"
    }
}

private struct SessionRow: Encodable {
    var started: String, startedEpoch: Double, stopped: String?, stoppedEpoch: Double?, name: String
    var sensor: String, count: Int, total: Double, mean: Double?, min: Double?, max: Double?
    var stdDev: Double?, classes: [SessionRecord.ClassCount], unclassified: Int

    enum CodingKeys: String, CodingKey {
        case started, stopped, name, sensor, count, total, mean, min, max, classes, unclassified
        case startedEpoch = "started_epoch"
        case stoppedEpoch = "stopped_epoch"
        case stdDev = "std_dev"
    }
}
