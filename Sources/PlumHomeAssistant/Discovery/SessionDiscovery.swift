import FoundationEssentials
package import PlumProtocol

/// The topics of items and sessions (protocol 1.5, docs/items.md):
///
///     plumscale/kitchen/left/item             {"event_type":"placed","grams":87.3,…}: one per ITEM, not retained
///     plumscale/kitchen/session               {"name":"…","running":true,"count":3,"total":…}, retained
///     plumscale/kitchen/left/session-start/set  Home Assistant's "left session start" button presses here
///     plumscale/kitchen/session/stop/set        and "session stop" here (one session runs at a time)
extension BridgeTopics {
    /// The pan's "item" event entity (``ItemEventPayload``).
    package func item(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/item" }
    /// The running (or last) session's figures, retained (``SessionStatePayload``).
    package var session: String { "\(base)/session" }
    /// Starts a session on the pan: each pan has its own start button, since a session records
    /// one pan's items and the daemon's default (its first sensor) may be a pan nobody weighs on.
    package func sessionStart(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/session-start/set" }
    /// Stops the running session, whichever pan it is on.
    package var sessionStop: String { "\(base)/session/stop/set" }

    /// The session button of a command topic, or nil for any other topic.
    package func parseSessionCommand(_ topic: String) -> SessionButton? {
        if topic == sessionStop { return .stop }
        let suffix = "/session-start/set"
        guard topic.hasPrefix(base + "/"), topic.hasSuffix(suffix) else { return nil }
        let level = topic.dropFirst(base.count + 1).dropLast(suffix.count)
        guard !level.isEmpty, !level.contains("/") else { return nil }
        return .start(panLevel: String(level))
    }
}

/// A press of a session button: start on a pan (its name made topic-safe), or stop.
package enum SessionButton: Hashable, Sendable {
    case start(panLevel: String)
    case stop
}

/// The state of the scale's sessions on `<base>/session`, retained: the running session's
/// figures, or the last stopped one's, or `"name":"none"` before any. Each sensor reads one key,
/// and the "session" sensor takes the whole object as its attributes.
package struct SessionStatePayload: Hashable, Sendable, Encodable {
    /// What the "session" sensor shows before any session: no name can be empty.
    package static let noSession = "none"

    package var name: String
    package var sensor: String?
    package var running: Bool
    package var started: String?
    package var stopped: String?
    package var count: Int
    package var total: Double
    /// Nil with no items: Home Assistant's sensor reads the `None` it renders as unknown.
    package var mean: Double?
    package var minimum: Double?
    package var maximum: Double?
    /// Each band's count, by name; and the items below the first band.
    package var classes: [String: Int]
    package var unclassified: Int

    /// The figures of `summary`, weights rounded to its division; none before any session.
    package init(_ summary: SessionSummary?) {
        guard let summary else {
            name = Self.noSession
            running = false
            count = 0
            total = 0
            classes = [:]
            unclassified = 0
            return
        }
        let division = DivisionRounding(grams: summary.division)
        name = summary.name
        sensor = summary.sensor
        running = summary.running
        started = summary.started
        stopped = summary.stopped
        count = summary.count
        total = division.round(summary.total)
        // The mean keeps one decimal more than the division: 30 plums of 0.1 g each mean to 0.01 g.
        let finer = DivisionRounding(grams: summary.division / 10)
        mean = summary.mean.map { finer.round($0) }
        minimum = summary.minimum.map { division.round($0) }
        maximum = summary.maximum.map { division.round($0) }
        classes = Dictionary(summary.classes.map { ($0.name, $0.count) }, uniquingKeysWith: +)
        unclassified = summary.unclassified
    }

    private enum CodingKeys: String, CodingKey {
        case name, sensor, running, started, stopped, count, total, mean, classes, unclassified
        case minimum = "min"
        case maximum = "max"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(sensor, forKey: .sensor)
        try container.encode(running, forKey: .running)
        try container.encode(started, forKey: .started)
        try container.encode(stopped, forKey: .stopped)
        try container.encode(count, forKey: .count)
        try container.encode(total, forKey: .total)
        try container.encode(mean, forKey: .mean)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
        try container.encode(classes, forKey: .classes)
        try container.encode(unclassified, forKey: .unclassified)
    }
}

extension HomeAssistantDiscovery {
    /// The entities of items and sessions, in the per-entity form ``configs(pans:)`` gives: per
    /// pan an "item" event entity and a button that starts a session on it, and for the scale the
    /// session's name (its figures as attributes), whether it runs, its count, total and mean, and
    /// a button that stops it.
    /// The bridge adds them only when the daemon answers `?SESSION` (protocol 1.5).
    package func sessionConfigs(pans: [String]) -> [(topic: String, payload: DiscoveryPayload)] {
        var result: [(topic: String, payload: DiscoveryPayload)] = []
        for pan in pans {
            let objectID = "\(ScaleIdentity.level(pan))_item"
            var payload = base(name: "\(pan) item", objectID: objectID, component: "event")
            payload.availability?.append(.init(topic: topics.panAvailability(pan)))
            // Never retained (the bridge publishes each once), so a restart of Home Assistant
            // does not fire the last plum again.
            payload.stateTopic = topics.item(pan)
            payload.eventTypes = ItemEventPayload.types
            payload.icon = "mdi:fruit-cherries"
            result.append((topics.discovery(component: "event", objectID: objectID), payload))
            let startID = "\(ScaleIdentity.level(pan))_session_start"
            var start = base(name: "\(pan) session start", objectID: startID, component: "button")
            start.availability?.append(.init(topic: topics.panAvailability(pan)))
            start.commandTopic = topics.sessionStart(pan)
            start.payloadPress = "PRESS"
            start.retain = false
            start.icon = "mdi:play-circle-outline"
            result.append((topics.discovery(component: "button", objectID: startID), start))
        }
        func session(_ name: String, _ key: String, _ component: String) -> DiscoveryPayload {
            var payload = base(name: name, objectID: key, component: component)
            payload.stateTopic = topics.session
            return payload
        }
        var name = session("session", "session", "sensor")
        name.valueTemplate = "{{ value_json.name }}"
        name.jsonAttributesTopic = topics.session
        name.icon = "mdi:basket-outline"
        var running = session("session running", "session_running", "binary_sensor")
        running.valueTemplate = "{{ 'ON' if value_json.running else 'OFF' }}"
        running.payloadOn = "ON"
        running.payloadOff = "OFF"
        running.deviceClass = "running"
        // Count and total only grow while a session runs; a new session starting from 0 is the
        // reset `total_increasing` expects, so Home Assistant's statistics sum each session.
        var count = session("session count", "session_count", "sensor")
        count.valueTemplate = "{{ value_json.count }}"
        count.stateClass = "total_increasing"
        count.icon = "mdi:counter"
        var total = session("session total", "session_total", "sensor")
        total.valueTemplate = "{{ value_json.total }}"
        total.deviceClass = "weight"
        total.unitOfMeasurement = "g"
        total.stateClass = "total_increasing"
        total.suggestedDisplayPrecision = division.decimals
        var mean = session("session mean", "session_mean", "sensor")
        mean.valueTemplate = "{{ value_json.mean }}"
        mean.deviceClass = "weight"
        mean.unitOfMeasurement = "g"
        mean.stateClass = "measurement"
        mean.suggestedDisplayPrecision = division.decimals + 1
        for (payload, component) in [
            (name, "sensor"), (running, "binary_sensor"), (count, "sensor"), (total, "sensor"), (mean, "sensor")
        ] {
            let key = String(payload.uniqueID.dropFirst(topics.identity.nodeID.count + 1))
            result.append((topics.discovery(component: component, objectID: key), payload))
        }
        var stop = base(name: "session stop", objectID: "session_stop", component: "button")
        stop.commandTopic = topics.sessionStop
        stop.payloadPress = "PRESS"
        stop.retain = false
        stop.icon = "mdi:stop-circle-outline"
        result.append((topics.discovery(component: "button", objectID: "session_stop"), stop))
        return result
    }
}
