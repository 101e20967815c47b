internal import PlumProtocol

/// The answer to a press, as Home Assistant sees it: an event on the pan's `event` entity and
/// the text of its "last action" sensor. Without it a tare refused on a moving pan went only to
/// the bridge's result topic, which no entity reads, and the user saw nothing happen.
struct PanEvent: Hashable, Sendable, Encodable {
    /// Every type the event entity declares. `button_short` and `button_long` are presses of
    /// the scale's own push button (a short press tares, a long one zeroes), from the daemon's
    /// `BUTTON` reports; the message says what came of the press.
    /// `alert_set` and `alert_refused` answer a change of an alert's threshold or hysteresis,
    /// `session_started`, `session_stopped` and `session_refused` the session buttons.
    static let types = [
        "tare_done", "tare_refused", "zero_done", "zero_refused", "button_short", "button_long", "alert_set",
        "alert_refused", "session_started", "session_stopped", "session_refused"
    ]

    /// One of ``types``.
    var eventType: String
    /// What happened, in the daemon's words: "tare refused: the pan is moving".
    var message: String
    /// The engine's refusal code, such as `notStable`; nil when done.
    var reason: String?

    init(eventType: String, message: String, reason: String?) {
        self.eventType = eventType
        self.message = message
        self.reason = reason
    }

    /// The daemon's answer to `action` on `pan`.
    init(_ reply: CommandReply, action: ScaleAction) {
        let word = action.rawValue
        let outcome = reply.ok ? "done" : "refused"
        eventType = "\(word)_\(outcome)"
        reason = reply.ok ? nil : reply.reason
        if let text = reply.message, !text.isEmpty {
            // The daemon's message already says "tare refused: …": it is not said twice.
            message = text.hasPrefix(word) ? text : "\(word) \(outcome): \(text)"
        } else if reply.ok, let grams = reply.tare ?? reply.offset {
            message = "\(word) done: \((grams * 100).rounded() / 100 + 0) g"
        } else {
            message = "\(word) \(outcome)" + (reply.ok ? "" : reply.reason.map { ": \($0)" } ?? "")
        }
    }

    /// A press of the scale's push button and what it did to the pan: `button_short` or
    /// `button_long`, with the daemon's outcome ("button: tare refused: …") and refusal code;
    /// nil for a gesture the event entity does not declare (Home Assistant would reject it).
    init?(_ press: ButtonReport) {
        guard Self.types.contains("button_\(press.gesture)") else { return nil }
        eventType = "button_\(press.gesture)"
        message = "button: \(press.message)"
        reason = press.ok ? nil : press.reason
    }

    /// The daemon could not be asked (the link is down): refused, with the error as the reason.
    init(action: ScaleAction, error: String) {
        eventType = "\(action.rawValue)_refused"
        message = "\(action.rawValue) refused: \(error)"
        reason = "unreachable"
    }

    /// The sensor's state: at most 255 characters, Home Assistant's limit for a state.
    var lastAction: String { message.count > 255 ? String(message.prefix(254)) + "…" : message }

    private enum CodingKeys: String, CodingKey {
        case eventType = "event_type"
        case message, reason
    }
}
