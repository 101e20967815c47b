internal import Logging
package import PlumCore
internal import PlumProtocol

/// Items and sessions on the station: an item goes to the watchers, then to the running
/// session, whose news goes to the watchers too.
extension Station {
    /// Publishes `report` and records `event` in the running session.
    func publishItem(_ event: ItemEvent, _ report: ItemReport) {
        publisher.publishEvent(.item(report), sensor: event.sensor)
        var log: [(level: Logger.Level, message: String)] = []
        let news = sessions.record(event, at: UTCTimestamp.now(), log: &log)
        for line in log { logger.log(level: line.level, "\(line.message)") }
        if let news { publisher.publishEvent(news, sensor: event.sensor) }
    }

    /// The reply to `?SESSION`; a start or stop is also told to the watchers of its sensor.
    func sessionReply(to request: SessionRequest) -> Report {
        var log: [(level: Logger.Level, message: String)] = []
        let reply = sessions.reply(
            to: request, sensors: channels.order, division: { channels[$0]?.engine.configuration.division },
            now: UTCTimestamp.now(), log: &log)
        for line in log { logger.log(level: line.level, "\(line.message)") }
        if case .session(let report) = reply, report.ok, request.action == .start || request.action == .stop,
            let sensor = report.sessions.first?.sensor
        {
            publisher.publishEvent(reply, sensor: sensor)
        }
        return reply
    }

    /// The running session, for tests and `?DEVICES`-like views.
    package var runningSession: SessionBook.Entry? { sessions.book.running }
}
