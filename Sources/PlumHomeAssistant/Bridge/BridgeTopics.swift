/// Every topic the bridge publishes or listens on, in one place.
///
///     plumscale/kitchen/status               online / offline: the bridge (birth and last will), retained
///     plumscale/kitchen/daemon               online / offline: the bridge watches plumscaled, retained
///     plumscale/kitchen/left/availability    online / offline: the pan's sensor delivers, retained
///     plumscale/kitchen/left/state           {"grams":152.2,"stable":true,...}, retained
///     plumscale/kitchen/left/live            the same, at most live_rate per second
///     plumscale/kitchen/left/cue             {"cue":"max-force"}
///     plumscale/kitchen/left/tare/set        Home Assistant's tare button presses here
///     plumscale/kitchen/left/result          the daemon's answer to a press
///     plumscale/kitchen/left/event           the same as a Home Assistant event, not retained
///     plumscale/kitchen/left/last-action     its text ("tare refused: …"), retained
///     plumscale/kitchen/left/diagnostics     {"state":"ok","last_fault":…,"discards_per_hour":0,…}, retained
///     plumscale/kitchen/diagnostics          {"started":"2026-11-26T18:00:00Z"}: the daemon's, retained
///     plumscale/kitchen/heaviest             the pan with the heaviest load, retained
///     plumscale/kitchen/alert/fruit-low/state ON / OFF, an [[alert]] of the daemon, retained
///     homeassistant/device/plumscale_kitchen/config                 discovery, one config, retained
///     homeassistant/sensor/plumscale_kitchen/left_weight/config    per-entity discovery of earlier releases
package struct BridgeTopics: Hashable, Sendable {
    package let prefix: String
    package let discoveryPrefix: String
    package let identity: ScaleIdentity

    package init(prefix: String = "plumscale", discoveryPrefix: String = "homeassistant", identity: ScaleIdentity) {
        self.prefix = prefix
        self.discoveryPrefix = discoveryPrefix
        self.identity = identity
    }

    package var base: String { "\(prefix)/\(identity.scaleID)" }
    /// The bridge itself: `online` once it has published, `offline` by its last will or when it stops.
    package var availability: String { "\(base)/status" }
    /// The bridge's link to plumscaled: `online` while it watches the daemon, `offline` while the
    /// daemon is gone (stopped, restarting) and the bridge itself is still there.
    package var daemon: String { "\(base)/daemon" }
    package var heaviest: String { "\(base)/heaviest" }
    package func state(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/state" }
    /// `online` while the pan's sensor delivers samples, `offline` while it does not (not
    /// ready, a fault); with ``availability`` it decides whether the pan's entities are available.
    package func panAvailability(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/availability" }
    package func live(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/live" }
    package func cue(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/cue" }
    package func result(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/result" }
    /// The pan's event entity: `{"event_type":"tare_refused","message":"…","reason":"…"}`.
    package func event(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/event" }
    /// The pan's "last action" sensor: the text of the last answer, retained.
    package func lastAction(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/last-action" }
    /// The pan's diagnostic entities: its sensor's state and last fault, calibration, hourly
    /// discards (``PanDiagnostics``), retained.
    package func diagnostics(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/diagnostics" }
    /// The scale's own diagnostics: when the daemon started, retained.
    package var scaleDiagnostics: String { "\(base)/diagnostics" }
    /// The state of the daemon's alert `name`.
    package func alert(_ name: String) -> String { "\(base)/alert/\(ScaleIdentity.level(name))/state" }
    package func command(_ pan: String, _ action: ScaleAction) -> String {
        "\(base)/\(ScaleIdentity.level(pan))/\(action.rawValue)/set"
    }
    /// Matches every command topic of this scale.
    package var commandFilter: String { "\(base)/+/+/set" }
    /// Where the bridge sends itself a marker after subscribing to its old configs: when the
    /// marker comes back, every retained config has arrived before it.
    package var sync: String { "\(base)/bridge/sync" }
    /// Home Assistant's own birth and will: `online` when it (re)starts.
    package var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// Matches every per-entity discovery config of this scale, as earlier releases published
    /// them: the bridge looks for them at each connect to migrate or clear them.
    package var discoveryFilter: String { "\(discoveryPrefix)/+/\(identity.nodeID)/+/config" }
    /// The scale's one device-based discovery config (Home Assistant 2024.12 and later): the node
    /// id of the per-entity topics is its object id, so each entity keeps its discovery id
    /// (`<node id> <object id>`) when it moves here.
    package var deviceDiscovery: String { "\(discoveryPrefix)/device/\(identity.nodeID)/config" }

    /// `<discovery_prefix>/<component>/<node_id>/<object_id>/config`, as Home Assistant's MQTT
    /// discovery documents it.
    package func discovery(component: String, objectID: String) -> String {
        "\(discoveryPrefix)/\(component)/\(identity.nodeID)/\(objectID)/config"
    }

    /// The pan and action of a command topic, or nil for any other topic.
    package func parseCommand(_ topic: String) -> (pan: String, action: ScaleAction)? {
        guard topic.hasPrefix(base + "/") else { return nil }
        let levels = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, levels[2] == "set", let action = ScaleAction(rawValue: String(levels[1])) else {
            return nil
        }
        return (String(levels[0]), action)
    }
}

/// What a Home Assistant button asks the daemon to do.
package enum ScaleAction: String, Hashable, Sendable, CaseIterable {
    case tare
    case zero
}
