import FoundationEssentials
internal import PlumProtocol

/// The Home Assistant MQTT discovery configs of one scale: one device, and per pan a weight
/// sensor, stable and overload binary sensors, a force sensor, a flow sensor, tare and zero
/// buttons, an event entity that answers every press and a diagnostic "last action" sensor,
/// and diagnostic sensors of its state, faults, calibration and discards; plus the scale's
/// heaviest pan and when its daemon started.
///
/// The bridge publishes them as one device config (``deviceConfig(pans:alerts:removed:)``);
/// ``configs(pans:)`` is the per-entity form earlier releases published, one topic per entity,
/// which the bridge migrates from.
package struct HomeAssistantDiscovery: Hashable, Sendable {
    package let topics: BridgeTopics
    package let division: DivisionRounding
    package let qos: Int
    package let version: String
    package let device: DeviceDetails
    /// The origin's `support_url`; left out when nil.
    package let supportURL: String?

    /// One entity a pan has in Home Assistant.
    package enum PanEntity: String, Hashable, Sendable, CaseIterable {
        case weight, stable, overload, force, flow, tare, zero
        /// The answer to every tare and zero: ``PanEvent/types``.
        case action
        /// The text of the last answer, for a dashboard or the logbook.
        case lastAction = "last_action"
        /// Diagnostics (``PanDiagnostics``): the sensor's state and last fault, the
        /// calibration's date and grade, late read-outs and discards in the last hour.
        case sensorState = "sensor_state"
        case lastFault = "last_fault"
        case calibrationDate = "calibration_date"
        case calibrationGrade = "calibration_grade"
        case lateReadouts = "late_readouts"
        case discards

        package var component: String {
            switch self {
            case .weight, .force, .flow, .lastAction: return "sensor"
            case .sensorState, .lastFault, .calibrationDate, .calibrationGrade, .lateReadouts, .discards:
                return "sensor"
            case .stable, .overload: return "binary_sensor"
            case .tare, .zero: return "button"
            case .action: return "event"
            }
        }
    }

    package init(
        topics: BridgeTopics, division: DivisionRounding, qos: Int = 1, version: String,
        device: DeviceDetails = .init(),
        supportURL: String? = nil
    ) {
        self.device = device
        self.supportURL = supportURL
        self.topics = topics
        self.division = division
        self.qos = qos
        self.version = version
    }

    /// Every per-entity config topic and payload for these pans, the scale-wide ones first: what
    /// releases before device-based discovery published, and what each component of the device
    /// config is made from.
    package func configs(pans: [String]) -> [(topic: String, payload: DiscoveryPayload)] {
        var result = [heaviestConfig(), daemonStartedConfig()]
        for pan in pans {
            for entity in PanEntity.allCases { result.append(config(entity, pan: pan)) }
        }
        return result
    }

    package static func encode(_ payload: DiscoveryPayload) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(payload))) ?? []
    }

    func config(_ entity: PanEntity, pan: String) -> (topic: String, payload: DiscoveryPayload) {
        let objectID = "\(ScaleIdentity.level(pan))_\(entity.rawValue)"
        var payload = base(name: "\(pan) \(Self.names[entity]!)", objectID: objectID, component: entity.component)
        // Available only while the bridge has the daemon and this pan's sensor delivers: a
        // pulled wire makes this pan's entities unavailable, and no other pan's.
        payload.availability?.append(.init(topic: topics.panAvailability(pan)))
        switch entity {
        case .weight:
            payload.stateTopic = topics.state(pan)
            payload.valueTemplate = "{{ value_json.grams }}"
            payload.deviceClass = "weight"
            payload.unitOfMeasurement = "g"
            payload.stateClass = "measurement"
            payload.suggestedDisplayPrecision = division.decimals
        case .force:
            payload.stateTopic = topics.state(pan)
            payload.valueTemplate = "{{ value_json.percent }}"
            payload.unitOfMeasurement = "%"
            payload.stateClass = "measurement"
            payload.suggestedDisplayPrecision = 0
            payload.icon = "mdi:gauge"
        case .flow:
            // The rate changes with every reading: it rides on the live topic, at the live rate.
            // Home Assistant has no mass-flow device class (volume_flow_rate is volume per time,
            // weight is a mass), so none is named: a measurement with its own unit.
            payload.stateTopic = topics.live(pan)
            payload.valueTemplate = "{{ value_json.flow }}"
            payload.unitOfMeasurement = "g/s"
            payload.stateClass = "measurement"
            payload.suggestedDisplayPrecision = 2
            payload.icon = "mdi:trending-up"
        case .stable, .overload:
            payload.stateTopic = topics.state(pan)
            payload.valueTemplate = "{{ 'ON' if value_json.\(entity.rawValue) else 'OFF' }}"
            payload.payloadOn = "ON"
            payload.payloadOff = "OFF"
            payload.deviceClass = entity == .overload ? "problem" : nil
            payload.icon = entity == .stable ? "mdi:scale-balance" : nil
            payload.entityCategory = entity == .overload ? "diagnostic" : nil
        case .tare, .zero:
            payload.commandTopic = topics.command(pan, entity == .tare ? .tare : .zero)
            payload.payloadPress = "PRESS"
            payload.retain = false
            payload.icon = entity == .tare ? "mdi:scale-balance" : "mdi:numeric-0-box-outline"
        case .action:
            // JSON with `event_type` and the reason text as attributes; never retained, so a
            // restart of Home Assistant does not fire an old answer again.
            payload.stateTopic = topics.event(pan)
            payload.eventTypes = PanEvent.types
            payload.icon = "mdi:gesture-tap-button"
        case .lastAction:
            payload.stateTopic = topics.lastAction(pan)
            payload.entityCategory = "diagnostic"
            payload.icon = "mdi:message-text-outline"
        case .sensorState, .lastFault, .calibrationDate, .calibrationGrade, .lateReadouts, .discards:
            diagnostic(entity, pan: pan, into: &payload)
        }
        return (topics.discovery(component: entity.component, objectID: objectID), payload)
    }

    func heaviestConfig() -> (topic: String, payload: DiscoveryPayload) {
        var payload = base(name: "heaviest pan", objectID: "heaviest", component: "sensor")
        payload.stateTopic = topics.heaviest
        payload.icon = "mdi:weight"
        return (topics.discovery(component: "sensor", objectID: "heaviest"), payload)
    }

    /// The fields every config shares; `component` is the platform, the first part of the entity id.
    func base(name: String, objectID: String, component: String) -> DiscoveryPayload {
        let id = topics.identity
        return DiscoveryPayload(
            name: name, uniqueID: "\(id.nodeID)_\(objectID)", objectID: "\(id.nodeID)_\(objectID)",
            defaultEntityID: "\(component).\(id.nodeID)_\(objectID)",
            availabilityTopic: nil, payloadAvailable: nil, payloadNotAvailable: nil,
            // The bridge (its will) and its link to the daemon, each on its own topic: both must
            // say online. A pan's entities add the pan's sensor.
            availability: sharedAvailability, availabilityMode: "all",
            device: deviceEntry,
            origin: origin,
            qos: qos)
    }

    /// The device registry entry all of a scale's entities share.
    var deviceEntry: DiscoveryPayload.Device {
        let id = topics.identity
        return .init(
            identifiers: [id.nodeID], name: HomeAssistantDeviceName.deviceName(scaleID: id.scaleID),
            manufacturer: "PlumScale",
            model: "Raspberry Pi scale", swVersion: version, hwVersion: device.hardware,
            serialNumber: device.serialNumber, configurationURL: device.configurationURL,
            suggestedArea: device.suggestedArea)
    }

    /// The bridge (its will) and its link to the daemon, each on its own topic: both must say online.
    var sharedAvailability: [DiscoveryPayload.Availability] {
        [.init(topic: topics.availability), .init(topic: topics.daemon)]
    }

    /// What published the configs: this bridge, its release, where to get help.
    var origin: DiscoveryPayload.Origin { .init(name: "plumscale-mqtt", swVersion: version, supportURL: supportURL) }

    private static let names: [PanEntity: String] = [
        .weight: "weight", .stable: "stable", .overload: "overload", .force: "force", .flow: "flow", .tare: "tare",
        .zero: "zero", .action: "action", .lastAction: "last action", .sensorState: "sensor state",
        .lastFault: "last fault", .calibrationDate: "calibration date", .calibrationGrade: "calibration grade",
        .lateReadouts: "late read-outs", .discards: "discards"
    ]
}
