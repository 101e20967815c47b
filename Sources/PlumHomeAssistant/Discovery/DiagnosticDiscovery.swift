/// The diagnostic entities (`entity_category: diagnostic`, on the device page's Diagnostic card):
/// per pan, the figures of ``PanDiagnostics`` from its diagnostics topic, and for the scale
/// when the daemon started.
extension HomeAssistantDiscovery {
    /// The parts of `entity`'s config that make it one of `pan`'s diagnostics.
    ///
    /// They follow the bridge and its daemon, not the pan's sensor: a fault is what they show
    /// while the pan's other entities are unavailable. An absent figure arrives as JSON `null`,
    /// which the template renders `None`, and Home Assistant takes as unknown.
    func diagnostic(_ entity: PanEntity, pan: String, into payload: inout DiscoveryPayload) {
        payload.stateTopic = topics.diagnostics(pan)
        payload.entityCategory = "diagnostic"
        payload.availability = sharedAvailability
        switch entity {
        case .sensorState:
            payload.valueTemplate = "{{ value_json.state }}"
            payload.icon = "mdi:heart-pulse"
        case .lastFault:
            payload.valueTemplate = "{{ value_json.last_fault or 'none' }}"
            payload.icon = "mdi:alert-circle-outline"
        case .calibrationDate:
            payload.valueTemplate = "{{ value_json.calibration_date }}"
            payload.deviceClass = "timestamp"
            payload.icon = "mdi:calendar-check"
        case .calibrationGrade:
            payload.valueTemplate = "{{ value_json.calibration_grade }}"
            payload.icon = "mdi:check-decagram-outline"
        case .lateReadouts, .discards:
            let key = entity == .lateReadouts ? "late_readouts_per_hour" : "discards_per_hour"
            payload.valueTemplate = "{{ value_json.\(key) }}"
            payload.unitOfMeasurement = "/h"
            payload.stateClass = "measurement"
            payload.suggestedDisplayPrecision = 0
            payload.icon = entity == .lateReadouts ? "mdi:timer-alert-outline" : "mdi:delete-clock-outline"
        default:
            break
        }
    }

    /// The scale's "daemon started" sensor: a timestamp, as Home Assistant shows an uptime
    /// ("3 hours ago"), from the daemon's monotonic uptime, so a clock set late does not skew it.
    func daemonStartedConfig() -> (topic: String, payload: DiscoveryPayload) {
        var payload = base(name: "daemon started", objectID: "daemon_started", component: "sensor")
        payload.stateTopic = topics.scaleDiagnostics
        payload.valueTemplate = "{{ value_json.started }}"
        payload.deviceClass = "timestamp"
        payload.entityCategory = "diagnostic"
        payload.icon = "mdi:restart"
        return (topics.discovery(component: "sensor", objectID: "daemon_started"), payload)
    }
}
