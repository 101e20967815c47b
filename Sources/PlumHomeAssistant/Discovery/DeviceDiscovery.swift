import FoundationEssentials
package import PlumProtocol

/// The scale as one device-based discovery config, and how the per-entity configs of earlier
/// releases map onto it.
///
/// Home Assistant identifies a discovered entity by its discovery id: `<node id> <object id>`
/// from a per-entity topic, `<device object id> <component key>` from a device config. With the
/// node id as the device's object id and each object id as its component key, every entity keeps
/// its discovery id, and Home Assistant's documented migration (`{"migrate_discovery": true}` on
/// the old topic, then the device config, then the old topic emptied) keeps its entity id and
/// history. Each component still carries `unique_id`, `default_entity_id` and `object_id`.
extension HomeAssistantDiscovery {
    /// What the bridge publishes on each old per-entity topic before the device config takes the
    /// entity over: Home Assistant unloads the entity and keeps its registry entry.
    package static let migrateDiscovery = #"{"migrate_discovery":true}"#

    /// Every entity of the scale, by object id, as a component of the device config: the
    /// per-entity config with its platform, without the device, the origin and the QoS the device
    /// config gives once, and without availability where it is the shared one.
    /// The settings entities (``settingsConfigs(pans:alerts:tares:capacities:)``) come with the
    /// named tares and the pans' capacities; those of items and sessions (``sessionConfigs(pans:)``)
    /// with a daemon that has `sessions`.
    package func components(
        pans: [String], alerts: [AlertReport], tares: [NamedTare] = [], capacities: [String: Double] = [:],
        sessions: Bool = false
    ) -> [String: DiscoveryPayload] {
        var result: [String: DiscoveryPayload] = [:]
        let settings = settingsConfigs(pans: pans, alerts: alerts, tares: tares, capacities: capacities)
        let items = sessions ? sessionConfigs(pans: pans) : []
        for (topic, payload) in configs(pans: pans) + alerts.map(alertConfig) + settings + items {
            guard let (platform, key) = legacyComponent(ofConfig: topic) else { continue }
            var component = payload
            component.platform = platform
            component.device = nil
            component.origin = nil
            component.qos = nil
            component.availabilityMode = nil
            if component.availability == sharedAvailability { component.availability = nil }
            result[key] = component
        }
        return result
    }

    /// The device config of these components, with each of `removed` (object id and platform)
    /// as a component holding only its platform, which removes that entity.
    package func deviceConfig(
        components: [String: DiscoveryPayload], removed: [String: String] = [:]
    ) -> DeviceDiscoveryPayload {
        var all = components.mapValues { DeviceDiscoveryPayload.Component.entity($0) }
        for (key, platform) in removed where all[key] == nil { all[key] = .removed(platform: platform) }
        return DeviceDiscoveryPayload(
            device: deviceEntry, origin: origin, components: all, availability: sharedAvailability,
            availabilityMode: "all", qos: qos)
    }

    /// The platform and object id of one of this scale's per-entity config topics
    /// (`<prefix>/<platform>/<node id>/<object id>/config`), or nil for any other topic.
    package func legacyComponent(ofConfig topic: String) -> (platform: String, objectID: String)? {
        let head = "\(topics.discoveryPrefix)/"
        guard topic.hasPrefix(head) else { return nil }
        let levels = topic.dropFirst(head.count).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[1] == topics.identity.nodeID, levels[3] == "config",
            !levels[0].isEmpty, !levels[2].isEmpty
        else { return nil }
        return (String(levels[0]), String(levels[2]))
    }

    /// The state topic of the alert whose component is `key`, or nil for another component.
    func alertStateTopic(ofComponent key: String) -> String? {
        guard key.hasPrefix("alert_"), key.count > "alert_".count else { return nil }
        return topics.alert(String(key.dropFirst("alert_".count)))
    }

    /// The component platforms of a retained device config's payload, by object id; empty when
    /// it is not one.
    static func componentPlatforms(ofDeviceConfig payload: [UInt8]) -> [String: String] {
        struct Stored: Decodable {
            struct Component: Decodable {
                let p: String?
                let platform: String?
            }
            let cmps: [String: Component]?
            let components: [String: Component]?
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(payload)) else { return [:] }
        return (stored.cmps ?? stored.components ?? [:]).compactMapValues { $0.p ?? $0.platform }
    }

    package static func encode(_ payload: DeviceDiscoveryPayload) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(payload))) ?? []
    }
}
