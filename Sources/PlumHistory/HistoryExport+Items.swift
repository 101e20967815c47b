/// The items and sessions series: CSV lines and JSON objects, as for the other two series.
extension HistoryExport {
    /// `time,sensor,seq,item,event,grams,gross_after,class,flags,session`, one line per item
    /// event, oldest first; an absent item number, class or session is an empty field, flags are
    /// separated by spaces.
    package static func csv(_ items: [ItemRecord]) -> String {
        csvHeader(.items) + csvLines(items)
    }

    /// `started,stopped,name,sensor,count,total,mean,min,max,std_dev,classes,unclassified`, one
    /// line per session by its start; `stopped` is empty while it runs, the figures the daemon
    /// leaves out (no items, one item) are empty, `classes` is `small=3;large=1` in band order.
    package static func csv(_ sessions: [SessionRecord]) -> String {
        csvHeader(.sessions) + csvLines(sessions)
    }

    package static func csvLines(_ items: [ItemRecord]) -> String {
        var text = ""
        for row in items {
            text += "\(HistoryWindow.isoText(row.time)),\(field(row.sensor)),\(row.sequence),"
            text += "\(row.item.map(String.init) ?? ""),\(field(row.event)),"
            text += "\(grams(row.grams)),\(grams(row.grossAfter)),"
            text += "\(field(row.weightClass ?? "")),\(field(row.flags.joined(separator: " "))),"
            text += "\(field(row.session ?? ""))\n"
        }
        return text
    }

    package static func csvLines(_ sessions: [SessionRecord]) -> String {
        var text = ""
        for row in sessions {
            let classes = row.classes.map { "\($0.name)=\($0.count)" }.joined(separator: ";")
            text += "\(HistoryWindow.isoText(row.started)),\(row.stopped.map(HistoryWindow.isoText) ?? ""),"
            text += "\(field(row.name)),\(field(row.sensor)),\(row.count),\(grams(row.total)),"
            text += [row.mean, row.minimum, row.maximum, row.standardDeviation].map { $0.map(grams) ?? "" }
                .joined(separator: ",")
            text += ",\(field(classes)),\(row.unclassified)\n"
        }
        return text
    }

    package static func json(_ items: [ItemRecord]) -> String {
        "[" + jsonObjects(items) + "]\n"
    }

    package static func json(_ sessions: [SessionRecord]) -> String {
        "[" + jsonObjects(sessions) + "]\n"
    }

    /// The CSV's fields and `epoch` seconds; `item`, `class` and `session` left out when absent,
    /// `flags` an array.
    package static func jsonObjects(_ items: [ItemRecord]) -> String {
        let encoder = makeEncoder()
        return items.map {
            encode(
                encoder,
                ItemRow(
                    time: HistoryWindow.isoText($0.time), epoch: $0.time, sensor: $0.sensor, seq: $0.sequence,
                    item: $0.item, event: $0.event, grams: $0.grams, grossAfter: $0.grossAfter,
                    weightClass: $0.weightClass, flags: $0.flags, session: $0.session))
        }.joined(separator: ",")
    }

    /// The CSV's fields with `started_epoch` and `stopped_epoch` seconds; `classes` an array of
    /// `{"name","count"}`; `stopped` and the figures the daemon leaves out are absent.
    package static func jsonObjects(_ sessions: [SessionRecord]) -> String {
        let encoder = makeEncoder()
        return sessions.map {
            encode(
                encoder,
                SessionRow(
                    started: HistoryWindow.isoText($0.started), startedEpoch: $0.started,
                    stopped: $0.stopped.map(HistoryWindow.isoText), stoppedEpoch: $0.stopped, name: $0.name,
                    sensor: $0.sensor, count: $0.count, total: $0.total, mean: $0.mean, min: $0.minimum,
                    max: $0.maximum, stdDev: $0.standardDeviation, classes: $0.classes,
                    unclassified: $0.unclassified))
        }.joined(separator: ",")
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
}
