package import PlumProtocol

/// The settings Home Assistant changes through the daemon: per pan a `number` for the preset
/// tare and a `select` of the daemon's named tares, per `[[alert]]` a `number` for its threshold
/// and one for its hysteresis.
///
///     plumscale/kitchen/left/preset-tare            the tare in use, grams, retained (from WEIGHT)
///     plumscale/kitchen/left/preset-tare/set        Home Assistant's number sets it
///     plumscale/kitchen/left/named-tare             the named tare of that weight, or "(none)", retained
///     plumscale/kitchen/left/named-tare/set         Home Assistant's select applies one
///     plumscale/kitchen/alert/fruit-low/threshold   the rule's threshold in use, retained (from ALERT)
///     plumscale/kitchen/alert/fruit-low/threshold/set, …/hysteresis, …/hysteresis/set
///
/// Every state is the daemon's value, so Home Assistant shows what the scale does, not what was
/// asked: a refused change leaves it, and the refusal is told on the pan's event entity.
extension BridgeTopics {
    package func presetTare(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/preset-tare" }
    package func namedTare(_ pan: String) -> String { "\(base)/\(ScaleIdentity.level(pan))/named-tare" }
    package func alertSetting(_ name: String, _ setting: AlertSetting) -> String {
        "\(base)/alert/\(ScaleIdentity.level(name))/\(setting.rawValue)"
    }
    /// Matches the alerts' number commands (the pans' are matched by ``commandFilter``).
    package var alertSettingFilter: String { "\(base)/alert/+/+/set" }

    /// What a settings command topic asks, or nil for any other topic; `level` is a pan's or an
    /// alert's name made topic-safe.
    package func parseSetting(_ topic: String) -> SettingCommand? {
        guard topic.hasPrefix(base + "/"), topic.hasSuffix("/set") else { return nil }
        let levels = topic.dropFirst(base.count + 1).dropLast(4).split(separator: "/", omittingEmptySubsequences: false)
        switch levels.count {
        case 2 where levels[1] == "preset-tare": return .presetTare(panLevel: String(levels[0]))
        case 2 where levels[1] == "named-tare": return .namedTare(panLevel: String(levels[0]))
        case 3 where levels[0] == "alert":
            guard let setting = AlertSetting(rawValue: String(levels[2])) else { return nil }
            return .alert(level: String(levels[1]), setting)
        default: return nil
        }
    }
}

/// One of an alert's two numbers.
package enum AlertSetting: String, Hashable, Sendable, CaseIterable {
    case threshold, hysteresis
}

/// A settings command from Home Assistant, by topic.
package enum SettingCommand: Hashable, Sendable {
    case presetTare(panLevel: String)
    case namedTare(panLevel: String)
    case alert(level: String, AlertSetting)
}

extension HomeAssistantDiscovery {
    /// The select's option for "no named tare in use": choosing it clears the tare. Not `none`: Home Assistant's MQTT select
    /// takes that payload (in any case) as "no option" and shows the entity as unknown; and in
    /// parentheses, which a tare's name cannot hold, so no saved tare can take it.
    package static let noNamedTare = "(none)"

    /// The settings entities' per-entity configs, in the form ``configs(pans:)`` gives (each
    /// becomes a component of the device config): the numbers' range is 0 to the pan's capacity
    /// (a threshold -capacity to capacity), in steps of d, typed in a box. The selects come
    /// once the library holds a tare.
    /// - Parameter capacities: each pan's full scale in grams, from `?DEVICES`; a pan not yet
    ///   known gets no numbers until it is.
    package func settingsConfigs(
        pans: [String], alerts: [AlertReport], tares: [NamedTare], capacities: [String: Double]
    ) -> [(topic: String, payload: DiscoveryPayload)] {
        var result: [(topic: String, payload: DiscoveryPayload)] = []
        for pan in pans {
            let level = ScaleIdentity.level(pan)
            if let capacity = capacities[pan] {
                var number = base(name: "\(pan) preset tare", objectID: "\(level)_preset_tare", component: "number")
                number.availability?.append(.init(topic: topics.panAvailability(pan)))
                number.commandTopic = topics.presetTare(pan) + "/set"
                number.stateTopic = topics.presetTare(pan)
                gramsRange(&number, min: 0, max: capacity)
                number.icon = "mdi:scale-balance"
                result.append((topics.discovery(component: "number", objectID: "\(level)_preset_tare"), number))
            }
            // A select with nothing to choose would only clutter the device: it comes with the first tare.
            guard !tares.isEmpty else { continue }
            var select = base(name: "\(pan) named tare", objectID: "\(level)_named_tare", component: "select")
            select.availability?.append(.init(topic: topics.panAvailability(pan)))
            select.commandTopic = topics.namedTare(pan) + "/set"
            select.stateTopic = topics.namedTare(pan)
            select.options = [Self.noNamedTare] + tares.map(\.name)
            select.icon = "mdi:bowl-outline"
            result.append((topics.discovery(component: "select", objectID: "\(level)_named_tare"), select))
        }
        for alert in alerts {
            guard let capacity = capacities[alert.sensor] else { continue }
            for setting in AlertSetting.allCases {
                let objectID = "\(Self.alertObjectID(alert.name))_\(setting.rawValue)"
                var number = base(name: "\(alert.name) \(setting.rawValue)", objectID: objectID, component: "number")
                number.commandTopic = topics.alertSetting(alert.name, setting) + "/set"
                number.stateTopic = topics.alertSetting(alert.name, setting)
                gramsRange(&number, min: setting == .threshold ? -capacity : 0, max: capacity)
                number.entityCategory = "config"
                number.icon = setting == .threshold ? "mdi:format-vertical-align-center" : "mdi:arrow-expand-vertical"
                result.append((topics.discovery(component: "number", objectID: objectID), number))
            }
        }
        return result
    }

    /// A number in grams from `min` to `max` in steps of d, typed in a box (a slider across a
    /// scale's whole range at 0.1 g cannot be set to a chosen weight).
    private func gramsRange(_ payload: inout DiscoveryPayload, min: Double, max: Double) {
        payload.min = division.round(min)
        payload.max = division.round(max)
        payload.step = division.grams
        payload.mode = "box"
        payload.unitOfMeasurement = "g"
        payload.deviceClass = "weight"
        payload.retain = false
    }
}
