/// One Home Assistant MQTT discovery config, with the field names of Home Assistant's MQTT
/// documentation (the long forms, not the abbreviations). Fields left nil are not sent.
///
/// The same type is a whole per-entity config (as releases before device-based discovery
/// published them, one topic each) and one component of ``DeviceDiscoveryPayload``: there
/// ``platform`` is set and ``device``, ``origin`` and ``qos`` are nil, given once for the device.
package struct DiscoveryPayload: Hashable, Sendable, Encodable {
    /// The component's platform (`p`), only inside a device config: `sensor`, `button`, …
    package var platform: String?
    package var name: String
    package var uniqueID: String
    /// Home Assistant before 2025.10 names the entity from this, `<node id>_<object id>`.
    package var objectID: String
    /// The entity id Home Assistant 2025.10 and later give a new entity, `<platform>.<object id>`
    /// (they drop ``objectID``; older versions ignore this key and use ``objectID``), so the
    /// entity ids stay those of earlier releases on any version.
    package var defaultEntityID: String?
    /// One topic that says whether the entity is available; the bridge's configs send
    /// ``availability`` instead (the two exclude each other), so it stays nil there.
    package var availabilityTopic: String?
    package var payloadAvailable: String? = "online"
    package var payloadNotAvailable: String? = "offline"
    /// Several topics, all of which must say `online` (with ``availabilityMode`` `all`): a
    /// pan's entities follow the bridge with its daemon link and the pan's own sensor.
    package var availability: [Availability]?
    package var availabilityMode: String?
    package var device: Device?
    package var origin: Origin?
    package var qos: Int?
    // sensor and binary_sensor
    package var stateTopic: String?
    package var valueTemplate: String?
    package var deviceClass: String?
    package var unitOfMeasurement: String?
    package var stateClass: String?
    /// A topic whose JSON object becomes the entity's attributes (the session's name, sensor, …).
    package var jsonAttributesTopic: String?
    package var suggestedDisplayPrecision: Int?
    package var payloadOn: String?
    package var payloadOff: String?
    // button
    package var commandTopic: String?
    package var payloadPress: String?
    package var retain: Bool?
    package var icon: String?
    package var entityCategory: String?
    // event
    package var eventTypes: [String]?
    // number and select (the settings)
    package var min: Double?
    package var max: Double?
    package var step: Double?
    package var mode: String?
    package var options: [String]?

    /// One entry of ``availability``.
    package struct Availability: Hashable, Sendable, Encodable {
        package var topic: String
        package var payloadAvailable = "online"
        package var payloadNotAvailable = "offline"

        package init(topic: String) { self.topic = topic }

        private enum CodingKeys: String, CodingKey {
            case topic
            case payloadAvailable = "payload_available"
            case payloadNotAvailable = "payload_not_available"
        }
    }

    /// The device registry entry all of a scale's entities share.
    package struct Device: Hashable, Sendable, Encodable {
        package var identifiers: [String]
        package var name: String
        package var manufacturer: String
        package var model: String
        package var swVersion: String
        package var hwVersion: String?
        package var serialNumber: String?
        package var configurationURL: String?
        package var suggestedArea: String?

        private enum CodingKeys: String, CodingKey {
            case identifiers, name, manufacturer, model
            case swVersion = "sw_version"
            case hwVersion = "hw_version"
            case serialNumber = "serial_number"
            case configurationURL = "configuration_url"
            case suggestedArea = "suggested_area"
        }
    }

    /// What published the config (Home Assistant logs it with discovery messages, and requires it
    /// in a device config).
    package struct Origin: Hashable, Sendable, Encodable {
        package var name: String
        package var swVersion: String
        /// Where to get help (`support_url`); Home Assistant accepts only http and https here.
        package var supportURL: String?

        private enum CodingKeys: String, CodingKey {
            case name
            case swVersion = "sw_version"
            case supportURL = "support_url"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case platform = "p"
        case name
        case uniqueID = "unique_id"
        case objectID = "object_id"
        case defaultEntityID = "default_entity_id"
        case availabilityTopic = "availability_topic"
        case payloadAvailable = "payload_available"
        case payloadNotAvailable = "payload_not_available"
        case availability
        case availabilityMode = "availability_mode"
        case device, origin, qos
        case stateTopic = "state_topic"
        case valueTemplate = "value_template"
        case deviceClass = "device_class"
        case unitOfMeasurement = "unit_of_measurement"
        case stateClass = "state_class"
        case jsonAttributesTopic = "json_attributes_topic"
        case suggestedDisplayPrecision = "suggested_display_precision"
        case payloadOn = "payload_on"
        case payloadOff = "payload_off"
        case commandTopic = "command_topic"
        case payloadPress = "payload_press"
        case retain, icon
        case entityCategory = "entity_category"
        case eventTypes = "event_types"
        case min, max, step, mode, options
    }
}
