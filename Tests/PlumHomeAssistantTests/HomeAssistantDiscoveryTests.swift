import PlumHomeAssistant
import PlumTestSupport
import Testing

/// The discovery payloads, field by field, against Home Assistant's MQTT documentation
/// (integrations/mqtt "MQTT Discovery", sensor.mqtt, binary_sensor.mqtt, button.mqtt): each
/// entity as Home Assistant sets it up from the device config (``DeviceConfigReader``).
@Suite("Home Assistant discovery")
struct HomeAssistantDiscoveryTests {
    static let identity = try! ScaleIdentity(configured: "kitchen", machineID: nil)
    static let topics = BridgeTopics(prefix: "plumscale", discoveryPrefix: "homeassistant", identity: identity)
    static let discovery = HomeAssistantDiscovery(
        topics: topics, division: DivisionRounding(grams: 0.1), qos: 1, version: "0.1.0")

    static func reader(pans: [String] = ["left", "right"]) throws -> DeviceConfigReader {
        let config = discovery.deviceConfig(components: discovery.components(pans: pans, alerts: []))
        return try #require(
            DeviceConfigReader(HomeAssistantDiscovery.encode(config), topic: topics.deviceDiscovery), "not JSON")
    }

    /// The entities Home Assistant sets up, by the per-entity topic of the same discovery id.
    static func entities(pans: [String] = ["left", "right"]) throws -> [String: JSONValue] {
        try reader(pans: pans).entities
    }

    static func payload(_ topic: String) throws -> JSONValue {
        try #require(try entities()[topic], "no entity with the discovery id of \(topic)")
    }

    @Test(
        "one config on <prefix>/device/<node_id>/config; each entity keeps its per-entity topic's discovery id"
    )
    func topicsPerPan() throws {
        #expect(Self.topics.deviceDiscovery == "homeassistant/device/plumscale_kitchen/config", "device topic")
        let topics = Set(try Self.entities().keys)
        var expected: Set<String> = [
            "homeassistant/sensor/plumscale_kitchen/heaviest/config",
            "homeassistant/sensor/plumscale_kitchen/daemon_started/config"
        ]
        for pan in ["left", "right"] {
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_weight/config")
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_force/config")
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_flow/config")
            expected.insert("homeassistant/binary_sensor/plumscale_kitchen/\(pan)_stable/config")
            expected.insert("homeassistant/binary_sensor/plumscale_kitchen/\(pan)_overload/config")
            expected.insert("homeassistant/button/plumscale_kitchen/\(pan)_tare/config")
            expected.insert("homeassistant/button/plumscale_kitchen/\(pan)_zero/config")
            expected.insert("homeassistant/event/plumscale_kitchen/\(pan)_action/config")
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_last_action/config")
            for diagnostic in ["sensor_state", "last_fault", "calibration_date", "calibration_grade"] {
                expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_\(diagnostic)/config")
            }
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_late_readouts/config")
            expected.insert("homeassistant/sensor/plumscale_kitchen/\(pan)_discards/config")
        }
        #expect(topics == expected, "unexpected or missing config topics: \(topics.symmetricDifference(expected))")
    }

    @Test(
        "weight sensor: device_class weight, unit_of_measurement g, state_class measurement, suggested_display_precision from d"
    )
    func weightSensor() throws {
        let config = try Self.payload("homeassistant/sensor/plumscale_kitchen/left_weight/config")
        #expect(config["device_class"]?.string == "weight", "device_class")
        #expect(config["unit_of_measurement"]?.string == "g", "unit_of_measurement")
        #expect(config["state_class"]?.string == "measurement", "state_class")
        #expect(config["suggested_display_precision"]?.number == 1, "suggested_display_precision for d = 0.1 g")
        #expect(config["state_topic"]?.string == "plumscale/kitchen/left/state", "state_topic")
        #expect(config["value_template"]?.string == "{{ value_json.grams }}", "value_template")
        #expect(config["unique_id"]?.string == "plumscale_kitchen_left_weight", "unique_id")
        #expect(config["name"]?.string == "left weight", "name")
    }

    @Test(
        "a pan's entities follow bridge, daemon link and its sensor; its diagnostics and the scale's the first two"
    )
    func availabilityAndDevice() throws {
        var uniqueIDs: [String] = []
        for (topic, config) in try Self.entities() {
            // A pan's diagnostics show its fault while its other entities are unavailable.
            let diagnostic = config["state_topic"]?.string?.hasSuffix("/diagnostics") == true
            if !diagnostic, let pan = ["left", "right"].first(where: { topic.contains("/plumscale_kitchen/\($0)_") }) {
                #expect(config["availability_topic"] == nil, "availability_topic and availability exclude each other")
                #expect(config["availability_mode"]?.string == "all", "availability_mode of \(topic)")
                let topics = config["availability"]?.array?.compactMap { $0["topic"]?.string }
                #expect(
                    topics == [
                        "plumscale/kitchen/status", "plumscale/kitchen/daemon", "plumscale/kitchen/\(pan)/availability"
                    ],
                    "availability of \(topic): \(String(describing: topics))")
                for entry in config["availability"]?.array ?? [] {
                    #expect(entry["payload_available"]?.string == "online", "payload_available of \(topic)")
                    #expect(entry["payload_not_available"]?.string == "offline", "payload_not_available of \(topic)")
                }
            } else {
                #expect(config["availability_topic"] == nil, "availability_topic and availability exclude each other")
                #expect(config["availability_mode"]?.string == "all", "availability_mode of \(topic)")
                #expect(
                    config["availability"]?.array?.compactMap { $0["topic"]?.string }
                        == ["plumscale/kitchen/status", "plumscale/kitchen/daemon"],
                    "the scale's entities follow the bridge and its daemon link: \(topic)")
            }
            let device = try #require(config["device"], "device of \(topic)")
            #expect(device["identifiers"]?.array == [.string("plumscale_kitchen")], "device.identifiers of \(topic)")
            #expect(device["name"]?.string == "PlumScale kitchen", "device.name")
            #expect(
                device["manufacturer"]?.string == "PlumScale" && device["sw_version"]?.string == "0.1.0",
                "device.manufacturer and device.sw_version")
            #expect(config["origin"]?["name"]?.string == "plumscale-mqtt", "origin.name")
            uniqueIDs.append(try #require(config["unique_id"]?.string, "unique_id of \(topic)"))
        }
        #expect(Set(uniqueIDs).count == uniqueIDs.count, "unique_ids repeat: \(uniqueIDs)")
    }

    @Test("binary_sensors stable and overload: payload_on ON, payload_off OFF, a template giving exactly those")
    func binarySensors() throws {
        let stable = try Self.payload("homeassistant/binary_sensor/plumscale_kitchen/left_stable/config")
        let overload = try Self.payload("homeassistant/binary_sensor/plumscale_kitchen/left_overload/config")
        for (config, field) in [(stable, "stable"), (overload, "overload")] {
            #expect(
                config["payload_on"]?.string == "ON" && config["payload_off"]?.string == "OFF",
                "payload_on/off of \(field)")
            #expect(
                config["value_template"]?.string == "{{ 'ON' if value_json.\(field) else 'OFF' }}",
                "value_template of \(field)")
            #expect(config["state_topic"]?.string == "plumscale/kitchen/left/state", "state_topic of \(field)")
        }
        #expect(overload["device_class"]?.string == "problem", "overload is a problem")
        #expect(stable["device_class"] == nil, "stable has no binary_sensor device class that fits")
    }

    @Test("force sensor: unit_of_measurement %, state_class measurement, value from percent")
    func forceSensor() throws {
        let config = try Self.payload("homeassistant/sensor/plumscale_kitchen/right_force/config")
        #expect(config["unit_of_measurement"]?.string == "%" && config["state_class"]?.string == "measurement")
        #expect(config["value_template"]?.string == "{{ value_json.percent }}", "value_template")
        #expect(
            config["device_class"] == nil, "no device_class: force in percent of full scale is none of HA's classes")
    }

    @Test("flow sensor: unit_of_measurement g/s, state_class measurement, no device_class, from the live topic")
    func flowSensor() throws {
        let config = try Self.payload("homeassistant/sensor/plumscale_kitchen/left_flow/config")
        #expect(config["unit_of_measurement"]?.string == "g/s", "unit_of_measurement")
        #expect(config["state_class"]?.string == "measurement", "state_class")
        #expect(
            config["device_class"] == nil,
            "no device_class: HA's volume_flow_rate is volume per time and weight is a mass; none is a mass flow")
        #expect(config["suggested_display_precision"]?.number == 2, "suggested_display_precision, 0.01 g/s as sent")
        #expect(config["state_topic"]?.string == "plumscale/kitchen/left/live", "state_topic: the live topic")
        #expect(config["value_template"]?.string == "{{ value_json.flow }}", "value_template")
        #expect(config["unique_id"]?.string == "plumscale_kitchen_left_flow", "unique_id")
        #expect(config["name"]?.string == "left flow", "name")
        #expect(config["command_topic"] == nil, "a sensor has no command_topic")
    }

    @Test("buttons tare and zero: command_topic and payload_press PRESS, no state_topic")
    func buttons() throws {
        for action in ["tare", "zero"] {
            let config = try Self.payload("homeassistant/button/plumscale_kitchen/left_\(action)/config")
            #expect(
                config["command_topic"]?.string == "plumscale/kitchen/left/\(action)/set", "command_topic of \(action)")
            #expect(config["payload_press"]?.string == "PRESS", "payload_press of \(action)")
            #expect(config["state_topic"] == nil, "a button has no state_topic")
            #expect(
                Self.topics.parseCommand("plumscale/kitchen/left/\(action)/set")?.action.rawValue == action,
                "the bridge reads its own command topic back")
        }
    }

    @Test("unique ids come from scale_id, else from the machine id, and stay the same for the same input")
    func identity() throws {
        let machine = "0123456789abcdef0123456789abcdef\n"
        let first = try ScaleIdentity(configured: nil, machineID: machine)
        let again = try ScaleIdentity(configured: nil, machineID: machine)
        #expect(first.scaleID == "0123456789ab" && first == again, "the machine id gives the same id every time")
        #expect(try ScaleIdentity(configured: "kitchen", machineID: machine).scaleID == "kitchen", "scale_id wins")
        let error = #expect(throws: BridgeError.self) { try ScaleIdentity(configured: nil, machineID: "") }
        #expect(error?.message.contains("scale_id") == true, "the error says to set scale_id")
    }
}
