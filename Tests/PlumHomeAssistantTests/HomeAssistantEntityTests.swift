import PlumHomeAssistant
import PlumTestSupport
import Testing

/// The parts of discovery Home Assistant 2025.10 and later need, and the entities that answer a
/// press: against the MQTT integration's docs (discovery, event.mqtt, sensor.mqtt, device fields).
@Suite("Home Assistant discovery: entity ids, events, device")
struct HomeAssistantEntityTests {
    static let identity = try! ScaleIdentity(configured: "kitchen", machineID: nil)
    static let topics = BridgeTopics(prefix: "plumscale", discoveryPrefix: "homeassistant", identity: identity)

    static func configs(device: DeviceDetails = .init()) throws -> [(topic: String, json: JSONValue)] {
        let discovery = HomeAssistantDiscovery(
            topics: topics, division: DivisionRounding(grams: 0.1), qos: 1, version: "0.1.0", device: device)
        let config = discovery.deviceConfig(components: discovery.components(pans: ["left", "right"], alerts: []))
        let reader = try #require(
            DeviceConfigReader(HomeAssistantDiscovery.encode(config), topic: topics.deviceDiscovery), "not JSON")
        return reader.entities.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    @Test("every config sends default_entity_id <platform>.<node>_<object>, the id object_id gave before 2025.10")
    func defaultEntityID() throws {
        for (topic, config) in try Self.configs() {
            let levels = topic.split(separator: "/")  // homeassistant/<component>/<node>/<object>/config
            let objectID = try #require(config["object_id"]?.string, "object_id kept for older versions: \(topic)")
            #expect(objectID == "\(levels[2])_\(levels[3])", "object_id of \(topic)")
            #expect(
                config["default_entity_id"]?.string == "\(levels[1]).\(objectID)",
                "default_entity_id of \(topic): \(String(describing: config["default_entity_id"]))")
        }
    }

    @Test("each pan has an event entity declaring the eleven answers, on its own unretained topic, pan availability")
    func eventEntity() throws {
        let config = try #require(
            try Self.configs().first { $0.topic == "homeassistant/event/plumscale_kitchen/left_action/config" }?.json)
        #expect(config["state_topic"]?.string == "plumscale/kitchen/left/event", "state_topic")
        #expect(
            config["event_types"]?.array?.compactMap(\.string)
                == [
                    "tare_done", "tare_refused", "zero_done", "zero_refused", "button_short", "button_long",
                    "alert_set", "alert_refused", "session_started", "session_stopped", "session_refused"
                ],
            "event_types: \(String(describing: config["event_types"]))")
        #expect(config["value_template"] == nil, "the payload is already the JSON with event_type the platform reads")
        let availability = config["availability"]?.array?.compactMap { $0["topic"]?.string }
        #expect(availability?.contains("plumscale/kitchen/left/availability") == true, "the pan's availability")
    }

    @Test("each pan has a diagnostic last action sensor reading the retained text topic")
    func lastActionSensor() throws {
        let config = try #require(
            try Self.configs().first { $0.topic == "homeassistant/sensor/plumscale_kitchen/right_last_action/config" }?
                .json)
        #expect(config["state_topic"]?.string == "plumscale/kitchen/right/last-action", "state_topic")
        #expect(config["entity_category"]?.string == "diagnostic", "entity_category")
        #expect(config["unit_of_measurement"] == nil && config["state_class"] == nil, "a text sensor, no unit")
        #expect(config["name"]?.string == "right last action", "name")
    }

    @Test("the device carries configuration_url, suggested_area, serial_number and hw_version when known, else none")
    func deviceFields() throws {
        let details = DeviceDetails(
            configurationURL: "http://kitchen.local:8080", suggestedArea: "Kitchen", serialNumber: "10000000abcdef01",
            hardware: "Raspberry Pi 4 Model B Rev 1.4")
        for (topic, config) in try Self.configs(device: details) {
            let device = try #require(config["device"], "device of \(topic)")
            #expect(device["configuration_url"]?.string == details.configurationURL, "configuration_url of \(topic)")
            #expect(device["suggested_area"]?.string == details.suggestedArea, "suggested_area of \(topic)")
            #expect(device["serial_number"]?.string == details.serialNumber, "serial_number of \(topic)")
            #expect(device["hw_version"]?.string == details.hardware, "hw_version of \(topic)")
        }
        for (topic, config) in try Self.configs() {
            let keys = ["configuration_url", "suggested_area", "serial_number", "hw_version"]
            #expect(keys.allSatisfy { config["device"]?[$0] == nil }, "unknown fields are left out: \(topic)")
        }
    }

    @Test("the Pi's serial: the device tree's, else cpuinfo's Serial line; all zeros or none is unknown")
    func piSerial() {
        let cpuinfo = "processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: 10000000abcdef01\nModel\t: Raspberry Pi\n"
        #expect(DeviceDetails.serial(deviceTree: "00000000feedbeef\0", cpuinfo: cpuinfo) == "00000000feedbeef")
        #expect(DeviceDetails.serial(deviceTree: nil, cpuinfo: cpuinfo) == "10000000abcdef01", "from cpuinfo")
        #expect(
            DeviceDetails.serial(deviceTree: nil, cpuinfo: "Serial\t\t: 0000000000000000\n") == nil,
            "a zero serial (a VM, a board without one) names no device")
        #expect(DeviceDetails.serial(deviceTree: nil, cpuinfo: "processor\t: 0\n") == nil, "no Serial line")
        #expect(DeviceDetails.model(deviceTree: "Raspberry Pi 5 Model B Rev 1.0\0") == "Raspberry Pi 5 Model B Rev 1.0")
        #expect(DeviceDetails.model(deviceTree: "\0") == nil, "an empty model is unknown")
    }
}
