/// What one publication of the device config sends, decided as a value; the bridge only sends it
/// in this order:
///
/// 1. `{"migrate_discovery": true}` on each of ``migrated`` and an empty message on each of
///    ``cleared`` and ``emptiedStates``;
/// 2. when ``removed`` is not empty, ``removing``: the config with each removed component
///    holding only its platform, which removes that entity;
/// 3. ``config``, when ``sendsConfig``;
/// 4. an empty message on each of ``migrated``.
///
/// That is the order Home Assistant's documentation gives for a migration ("Migration from single
/// component to device-based discovery": migrate, publish the device config, clean up) and for
/// removing a component (platform alone, then an update without it).
package struct DeviceConfigPlan: Hashable, Sendable {
    /// Old per-entity topics whose entity the device config takes over.
    package var migrated: [String] = []
    /// Old per-entity topics whose entity left: emptied, which removes the entity, as before.
    package var cleared: [String] = []
    /// Components Home Assistant may have that are no longer there: platform by object id.
    package var removed: [String: String] = [:]
    /// Retained alert states of alerts that left.
    package var emptiedStates: [String] = []
    package var removing: DeviceDiscoveryPayload?
    package var config: DeviceDiscoveryPayload
    package var sendsConfig: Bool

    /// - Parameters:
    ///   - components: the scale's entities now (``HomeAssistantDiscovery/components(pans:alerts:)``).
    ///   - legacy: retained per-entity topics to judge now (those ``canJudge(_:components:alertsKnown:discovery:)``
    ///     accepts).
    ///   - known: the components Home Assistant may have, platform by object id.
    ///   - alertsKnown: whether the daemon has reported all its alerts since the link connected;
    ///     until then an alert that is not among `components` may still come.
    ///   - alertsGone: object ids of alerts the daemon said it no longer has.
    ///   - published: the device config last sent; an equal one is sent again only when `force`d.
    package init(
        discovery: HomeAssistantDiscovery, components: [String: DiscoveryPayload], legacy: [String],
        known: [String: String], alertsKnown: Bool, alertsGone: Set<String>, published: DeviceDiscoveryPayload?,
        force: Bool
    ) {
        for topic in legacy.sorted() {
            if Self.isCurrent(topic, components: components, discovery: discovery) {
                migrated.append(topic)
            } else {
                cleared.append(topic)
                if let state = discovery.alertStateTopic(ofConfig: topic) { emptiedStates.append(state) }
            }
        }
        removed = known.filter { key, _ in
            components[key] == nil
                && (alertsKnown || alertsGone.contains(key) || discovery.alertStateTopic(ofComponent: key) == nil)
        }
        emptiedStates += removed.keys.sorted().compactMap { discovery.alertStateTopic(ofComponent: $0) }
        removing = removed.isEmpty ? nil : discovery.deviceConfig(components: components, removed: removed)
        config = discovery.deviceConfig(components: components)
        sendsConfig = force || !removed.isEmpty || !migrated.isEmpty || config != published
    }

    /// Whether the retained per-entity config on `topic` can be judged now: its entity is there
    /// (migrate it), or it is not and cannot come back before the daemon's alerts are all known
    /// (empty it). An alert's old config waits while the daemon may still report its alert.
    package static func canJudge(
        _ topic: String, components: [String: DiscoveryPayload], alertsKnown: Bool, discovery: HomeAssistantDiscovery
    ) -> Bool {
        isCurrent(topic, components: components, discovery: discovery) || alertsKnown
            || !discovery.isAlertConfig(topic)
    }

    /// Whether the entity of the per-entity config on `topic` is among `components`, same platform.
    package static func isCurrent(
        _ topic: String, components: [String: DiscoveryPayload], discovery: HomeAssistantDiscovery
    ) -> Bool {
        guard let (platform, key) = discovery.legacyComponent(ofConfig: topic) else { return false }
        return components[key]?.platform == platform
    }
}
