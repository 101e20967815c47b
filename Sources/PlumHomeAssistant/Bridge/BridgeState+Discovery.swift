internal import PlumProtocol

/// The bridge's Home Assistant discovery: one device config for the scale, the migration from the
/// per-entity configs of earlier releases, and entities that left (pans, alerts) removed.
extension BridgeState {
    /// Publishes the device config once the broker's retained discovery of this connection is
    /// known (``DiscoveryCleanup``) and the daemon's pans are: unchanged ones only when `force`d,
    /// as after a (re)connect or Home Assistant's birth message.
    ///
    /// What it sends is decided by ``DeviceConfigPlan``. The first one of a connection takes over
    /// what the broker retains, in the order Home Assistant's documentation gives for a migration
    /// ("Migration from single component to device-based discovery"): `{"migrate_discovery": true}`
    /// on each per-entity config whose entity is still there, then the device config, then those
    /// topics emptied. A per-entity config whose entity left is emptied, which removes the entity,
    /// as before. A component of a retained device config that is no longer there is sent with
    /// its platform alone, which removes it, and then left out. An alert not (yet) reported is
    /// judged once the daemon has reported them all.
    ///
    /// It waits, after the link connects, for the pans' capacities, the named tares and `?SESSION`
    /// (``settingsSinceConnect``): the settings entities are built from them, and Home Assistant
    /// removes a component a device config leaves out, so a config sent before them would remove
    /// the numbers and selects at every start of the bridge and add them back a moment later.
    mutating func publishDeviceConfig(force: Bool = false) {
        guard brokerUp, daemonUp, cleanup.isSynced, settingsSinceConnect.isEmpty else { return }
        let alertsKnown = alertsSinceConnect == nil
        for (key, platform) in cleanup.takeComponents() where knownComponents[key] == nil {
            knownComponents[key] = platform
        }
        let components = discovery.components(
            pans: pans, alerts: alerts.keys.sorted().map { alerts[$0]! }, tares: tareLibrary, capacities: capacities,
            sessions: sessionsSupported)
        let legacy = cleanup.takeLegacy {
            DeviceConfigPlan.canJudge($0, components: components, alertsKnown: alertsKnown, discovery: discovery)
        }
        let plan = DeviceConfigPlan(
            discovery: discovery, components: components, legacy: legacy, known: knownComponents,
            alertsKnown: alertsKnown, alertsGone: alertsGone, published: publishedDeviceConfig, force: force)

        let topic = settings.topics.deviceDiscovery
        for old in plan.migrated { send(old, text: HomeAssistantDiscovery.migrateDiscovery, retain: true) }
        for emptied in plan.cleared + plan.emptiedStates { send(emptied, bytes: [], retain: true) }
        if let removing = plan.removing {
            send(topic, bytes: HomeAssistantDiscovery.encode(removing), retain: settings.retain)
        }
        if plan.sendsConfig {
            send(topic, bytes: HomeAssistantDiscovery.encode(plan.config), retain: settings.retain)
            publishedDeviceConfig = plan.config
        }
        for old in plan.migrated { send(old, bytes: [], retain: true) }

        for key in plan.removed.keys {
            knownComponents[key] = nil
            alertsGone.remove(key)
        }
        for (key, component) in components { knownComponents[key] = component.platform }
        if !plan.migrated.isEmpty {
            log(.info, "moved \(plan.migrated.count) Home Assistant entities from per-entity discovery to \(topic)")
        }
        if !plan.cleared.isEmpty || !plan.removed.isEmpty {
            let names = plan.cleared + plan.removed.keys.sorted()
            log(
                .info,
                "removed \(names.count) Home Assistant entities no longer configured: \(names.joined(separator: ", "))")
        }
    }

    /// The daemon has reported every alert it has since the link connected: one the bridge knew
    /// that is not among them left the configuration while the bridge was away from the daemon.
    mutating func alertsKnown(_ seen: Set<String>) {
        for name in alerts.keys.sorted() where !seen.contains(name) { forgetAlert(name) }
        publishDeviceConfig()
    }

    /// An alert taken out of the daemon's configuration: its entity leaves Home Assistant with the
    /// next device config and its retained state is cleared, so nothing shows it.
    mutating func removeAlert(_ name: String) {
        forgetAlert(name)
        publishDeviceConfig()
    }

    private mutating func forgetAlert(_ name: String) {
        alerts.removeValue(forKey: name)
        alertsGone.insert(HomeAssistantDiscovery.alertObjectID(name))
        send(settings.topics.alert(name), bytes: [], retain: true)
        log(.info, "alert \(name) is no longer configured; removing its Home Assistant entity")
    }

    /// An alert's state, retained.
    mutating func publishAlertState(_ alert: AlertReport) {
        let state = HomeAssistantDiscovery.alertState(alert)
        send(settings.topics.alert(alert.name), text: state, retain: settings.retain)
        publishAlertSettings(alert)
        if alerts[alert.name]?.active != alert.active {
            log(.info, "alert \(alert.name) on \(alert.sensor): \(state)")
        }
    }
}
