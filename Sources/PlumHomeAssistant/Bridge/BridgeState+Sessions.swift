import FoundationEssentials
internal import PlumMQTT
internal import PlumProtocol

/// Items and sessions in Home Assistant (docs/items.md): each `ITEM` report becomes one event on
/// its pan's "item" entity, the daemon's `SESSION` news the retained state of the session
/// sensors, and the session buttons `?SESSION` start and stop. A refusal is told on the pan's
/// event entity and last-action sensor, as a refused tare is.
extension BridgeState {
    /// Asks `?SESSION` show as the link connects: whether the daemon has sessions at all (one
    /// before protocol 1.5 answers with an error) and the running or last one. The device config
    /// waits for the answer, so the session entities are in the first one and are never removed
    /// and added back at a start of the bridge.
    mutating func askSession() { ask(.session) }

    /// The daemon's answer to `?SESSION` show, or why there is none.
    mutating func sessionAnswered(_ answer: Result<Report, BridgeError>) {
        switch answer {
        case .success(.session(let reply)):
            sessionsSupported = true
            // Not ok: the daemon has had no session yet.
            session = SessionStatePayload(reply.ok ? reply.sessions.first : nil)
            publishSession()
        case .success(.error(let message)):
            if sessionsSupported { log(.info, "plumscaled has no sessions: \(message)") }
            sessionsSupported = false
        case .success:
            break
        case .failure(let error):
            // Unknown, not absent: the entities stay as they were rather than leave and come back.
            log(.info, "sessions not read from plumscaled: \(error)")
        }
        settingsRead("sessions")
    }

    /// One `ITEM` report: one event on the pan's item entity, in the order the daemon sent them.
    mutating func itemReported(_ report: ItemReport) {
        guard pans.contains(report.sensor), let event = ItemEventPayload(report) else { return }
        send(settings.topics.item(report.sensor), text: Self.json(event), retain: false)
    }

    /// The daemon's news of the session: started, stopped or an item recorded.
    mutating func sessionNews(_ report: SessionReport) {
        guard report.ok, ["start", "stop", "item"].contains(report.action), let summary = report.sessions.first else {
            return
        }
        session = SessionStatePayload(summary)
        publishSession()
    }

    /// The session's state, retained, once the daemon is known to have sessions.
    mutating func publishSession() {
        guard sessionsSupported, let session else { return }
        send(settings.topics.session, text: Self.json(session), retain: settings.retain)
    }

    /// Carries out a press of a session button, or returns false for another topic.
    mutating func sessionCommand(_ message: MQTTMessage) -> Bool {
        guard let button = settings.topics.parseSessionCommand(message.topic) else { return false }
        // A press is an event, never state: see the pans' buttons.
        guard !message.retain, message.payload == Array("PRESS".utf8) else {
            log(
                .warning,
                "\(message.topic): ignoring a retained or other message; a press is PRESS, without the retain flag")
            return true
        }
        let request: SessionRequest
        switch button {
        case .start(let level):
            guard let pan = pans.first(where: { ScaleIdentity.level($0) == level }) else {
                log(.warning, "\(message.topic): no pan \(level) on this scale; pans: \(pans.joined(separator: ", "))")
                return true
            }
            request = SessionRequest(action: .start, name: Self.sessionName(at: Date.now), sensor: pan)
        case .stop:
            request = SessionRequest(action: .stop)
        }
        let on = request.sensor.map { " on \($0)" } ?? ""
        log(.info, "Home Assistant pressed session \(request.action.rawValue)\(on)")
        ask(.sessionCommand(request))
        return true
    }

    /// A session started from Home Assistant is named after when: `2026-11-27T06:01:05Z`, one line,
    /// unique unless pressed twice in a second (then the daemon refuses the second, and says so).
    static func sessionName(at date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// The daemon's answer to a session button, told on the pan the session is on.
    mutating func sessionCommandAnswered(_ request: SessionRequest, _ answer: Result<Report, BridgeError>) {
        let reply: Report
        switch answer {
        case .success(let report): reply = report
        case .failure(let error): reply = .error(message: "\(error)")
        }
        let event = PanEvent(session: request, reply: reply)
        if event.reason != nil { log(.warning, "\(event.message)") }
        // Told on the pan the session is on: the reply's, else the pan pressed, else the running
        // session's, else the first.
        var sensor: String?
        if case .session(let answer) = reply { sensor = answer.sessions.first?.sensor }
        let running = session?.running == true ? session?.sensor : nil
        guard let pan = sensor ?? request.sensor ?? running ?? pans.first else { return }
        announce(event, pan: pan)
    }
}

extension PanEvent {
    /// The daemon's answer to a session button: `session_started`, `session_stopped`, or
    /// `session_refused` with the daemon's words ("no session runs; …").
    init(session request: SessionRequest, reply: Report) {
        let word = "session \(request.action.rawValue)"
        switch reply {
        case .session(let answer) where answer.ok:
            let type = request.action == .start ? "session_started" : "session_stopped"
            self.init(eventType: type, message: answer.message, reason: nil)
        case .session(let answer):
            self.init(eventType: "session_refused", message: "\(word) refused: \(answer.message)", reason: "refused")
        case .error(let message):
            self.init(eventType: "session_refused", message: "\(word) refused: \(message)", reason: "refused")
        default:
            self.init(
                eventType: "session_refused", message: "\(word) refused: no answer from plumscaled", reason: "refused")
        }
    }
}
