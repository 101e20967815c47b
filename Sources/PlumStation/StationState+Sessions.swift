internal import Logging
internal import PlumCore
internal import PlumProtocol

/// Items and sessions on the station: an item goes to the watchers, then to the running
/// session, whose news goes to the watchers too.
extension StationState {
    /// Records `event` in the running session and publishes `report`, classed by the session's
    /// bands when it recorded the item (the bands it started with, which a reload may have
    /// changed since), so the report and the session agree.
    mutating func recordItem(_ event: ItemEvent, _ report: ItemReport) {
        var log: [(level: Logger.Level, message: String)] = []
        let (item, news) = sessions.record(event, at: UTCTimestamp.now(), log: &log)
        for line in log { self.log(line.level, line.message) }
        var report = report
        if let item, event.kind == .placed {
            report.weightClass = item.weightClass
            report.flags = item.flags.names
        }
        publish(.item(report), sensor: event.sensor)
        if let news { publish(news, sensor: event.sensor) }
    }

    /// The reply to `?SESSION`; a start or stop is also told to the watchers of its sensor.
    mutating func sessionReply(to request: SessionRequest) -> Report {
        var log: [(level: Logger.Level, message: String)] = []
        let reply = sessions.reply(
            to: request, sensors: channels.order, division: { channels[$0]?.engine.configuration.division },
            now: UTCTimestamp.now(), log: &log)
        for line in log { self.log(line.level, line.message) }
        if case .session(let report) = reply, report.ok, request.action == .start,
            let sensor = report.sessions.first?.sensor
        {
            // Items are numbered per session: the first of this one is 1.
            channels[sensor]?.items?.detector.renumber()
        }
        if case .session(let report) = reply, report.ok, request.action == .start || request.action == .stop,
            let sensor = report.sessions.first?.sensor
        {
            publish(reply, sensor: sensor)
        }
        return reply
    }
}
