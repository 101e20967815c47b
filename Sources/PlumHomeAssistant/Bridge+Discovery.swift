internal import PlumProtocol

/// The bridge's Home Assistant discovery: one device config for the scale, the migration from the
/// per-entity configs of earlier releases, and entities that left (pans, alerts) removed.
extension Bridge {
    /// Publishes the device config once the broker's retained discovery of this connection is
    /// known (``DiscoveryCleanup``) and the daemon's pans are: unchanged ones only when `force`d,
    /// as after a (re)connect or Home Assistant's birth message.
    ///
    /// The first one of a connection takes over what the broker retains, in the order Home
    /// Assistant's documentation gives for a migration ("Migration from single component to
    /// device-based discovery"): `{"migrate_discovery": true}` on each per-entity config whose
    /// entity is still there, then the device config, then those topics emptied. A per-entity
    /// config whose entity left is emptied, which removes the entity, as before. A component of
    /// a retained device config that is no longer there is sent with its platform alone, which
    /// removes it, and then left out. An alert not (yet) reported is judged once the daemon has
    /// reported them all.
    func publishDeviceConfig(force: Bool = false) {
        guard brokerUp, daemonUp, cleanup.isSynced else { return }
        let alertsKnown = alertsSinceConnect == nil
        for (key, platform) in cleanup.takeComponents() where knownComponents[key] == nil {
            knownComponents[key] = platform
        }
        let components = discovery.components(pans: pans, alerts: alerts.keys.sorted().map { alerts[$0]! })

        var migrated: [String] = []
        var cleared: [String] = []
        func isCurrent(_ topic: String) -> Bool {
            guard let (platform, key) = discovery.legacyComponent(ofConfig: topic) else { return false }
            return components[key]?.platform == platform
        }
        // An alert's old config waits while the daemon may still report its alert.
        for topic in cleanup.takeLegacy(where: { isCurrent($0) || alertsKnown || !discovery.isAlertConfig($0) }) {
            if isCurrent(topic) { migrated.append(topic) } else { cleared.append(topic) }
        }
        for topic in migrated { send(topic, text: HomeAssistantDiscovery.migrateDiscovery, retain: true) }
        for topic in cleared {
            send(topic, bytes: [], retain: true)
            if let state = discovery.alertStateTopic(ofConfig: topic) { send(state, bytes: [], retain: true) }
        }

        let removed = knownComponents.filter { key, _ in
            components[key] == nil
                && (alertsKnown || alertsGone.contains(key) || discovery.alertStateTopic(ofComponent: key) == nil)
        }
        let topic = settings.topics.deviceDiscovery
        if !removed.isEmpty {
            let config = discovery.deviceConfig(components: components, removed: removed)
            send(topic, bytes: HomeAssistantDiscovery.encode(config), retain: settings.retain)
            for key in removed.keys.sorted() {
                knownComponents[key] = nil
                alertsGone.remove(key)
                if let state = discovery.alertStateTopic(ofComponent: key) { send(state, bytes: [], retain: true) }
            }
        }
        let config = discovery.deviceConfig(components: components)
        if force || !removed.isEmpty || !migrated.isEmpty || config != publishedDeviceConfig {
            send(topic, bytes: HomeAssistantDiscovery.encode(config), retain: settings.retain)
            publishedDeviceConfig = config
        }
        for (key, component) in components { knownComponents[key] = component.platform }
        for topic in migrated { send(topic, bytes: [], retain: true) }

        if !migrated.isEmpty {
            logger.info("moved \(migrated.count) Home Assistant entities from per-entity discovery to \(topic)")
        }
        if !cleared.isEmpty || !removed.isEmpty {
            let names = (cleared + removed.keys.sorted()).joined(separator: ", ")
            logger.info(
                "removed \(cleared.count + removed.count) Home Assistant entities no longer configured: \(names)")
        }
    }

    /// The daemon has reported every alert it has since the link connected: one the bridge knew
    /// that is not among them left the configuration while the bridge was away from the daemon.
    func alertsKnown(_ seen: Set<String>) {
        for name in alerts.keys.sorted() where !seen.contains(name) { forgetAlert(name) }
        publishDeviceConfig()
    }

    /// An alert taken out of the daemon's configuration: its entity leaves Home Assistant with the
    /// next device config and its retained state is cleared, so nothing shows it.
    func removeAlert(_ name: String) {
        forgetAlert(name)
        publishDeviceConfig()
    }

    private func forgetAlert(_ name: String) {
        alerts.removeValue(forKey: name)
        alertsGone.insert(HomeAssistantDiscovery.alertObjectID(name))
        send(settings.topics.alert(name), bytes: [], retain: true)
        logger.info("alert \(name) is no longer configured; removing its Home Assistant entity")
    }

    /// An alert's state, retained.
    func publishAlertState(_ alert: AlertReport) {
        let state = HomeAssistantDiscovery.alertState(alert)
        send(settings.topics.alert(alert.name), text: state, retain: settings.retain)
        if alerts[alert.name]?.active != alert.active {
            logger.info("alert \(alert.name) on \(alert.sensor): \(state)")
        }
    }
}
