import PlumHomeAssistant
import PlumProtocol
import PlumTestSupport
import Testing

/// The device config as a whole, against Home Assistant's "Device discovery payload" and its
/// migration section (integrations/mqtt): `dev`, `o` and `cmps`, the shared options, removal.
@Suite("Home Assistant device-based discovery")
struct DeviceDiscoveryTests {
    static let identity = try! ScaleIdentity(configured: "kitchen", machineID: nil)
    static let topics = BridgeTopics(prefix: "plumscale", discoveryPrefix: "homeassistant", identity: identity)
    static let discovery = HomeAssistantDiscovery(
        topics: topics, division: DivisionRounding(grams: 0.1), qos: 1, version: "0.1.0",
        supportURL: "https://plumscale.example/support")
    static let alert = alertRule("fruit-low", sensor: "left")

    static func json(removed: [String: String] = [:]) -> JSONValue? {
        let components = discovery.components(pans: ["left", "right"], alerts: [alert])
        let bytes = HomeAssistantDiscovery.encode(discovery.deviceConfig(components: components, removed: removed))
        return JSONValue.parse(bytes)
    }

    @Test("dev, o (name, sw_version, support_url) and cmps once; availability, availability_mode and qos shared")
    func deviceLevel() throws {
        let config = try #require(Self.json(), "the device config is not JSON")
        #expect(config["dev"]?["identifiers"]?.array == [.string("plumscale_kitchen")], "dev.identifiers")
        #expect(config["dev"]?["name"]?.string == "PlumScale kitchen", "dev.name")
        #expect(config["o"]?["name"]?.string == "plumscale-mqtt", "o.name")
        #expect(config["o"]?["sw_version"]?.string == "0.1.0", "o.sw_version")
        #expect(config["o"]?["support_url"]?.string == "https://plumscale.example/support", "o.support_url")
        #expect(config["qos"]?.number == 1, "qos shared")
        #expect(config["availability_mode"]?.string == "all", "availability_mode shared")
        #expect(
            config["availability"]?.array?.compactMap { $0["topic"]?.string }
                == ["plumscale/kitchen/status", "plumscale/kitchen/daemon"],
            "the bridge and its daemon link, shared")
        #expect(config["device"] == nil && config["origin"] == nil, "abbreviated once, not both forms")
        let unknown = config.keys.subtracting(["dev", "o", "cmps", "availability", "availability_mode", "qos"])
        #expect(unknown.isEmpty, "only options Home Assistant allows at device level: \(unknown)")
    }

    @Test("every entity is a component with p and unique_id, and no device, origin or qos of its own")
    func components() throws {
        let components = try #require(Self.json()?["cmps"]?.object, "cmps")
        #expect(
            components.count == 2 * 15 + 3,
            "15 per pan, the heaviest pan, the daemon's start and the alert: \(components.keys.sorted())")
        for (key, component) in components {
            #expect(component["p"]?.string != nil, "p of \(key)")
            #expect(component["unique_id"]?.string == "plumscale_kitchen_\(key)", "unique_id of \(key)")
            #expect(component["object_id"]?.string == "plumscale_kitchen_\(key)", "object_id of \(key)")
            let platform = component["p"]?.string ?? "?"
            #expect(
                component["default_entity_id"]?.string == "\(platform).plumscale_kitchen_\(key)",
                "default_entity_id of \(key)")
            #expect(
                component["device"] == nil && component["origin"] == nil && component["qos"] == nil
                    && component["availability_mode"] == nil,
                "\(key) inherits what the device config gives once")
        }
        #expect(components["heaviest"]?["availability"] == nil, "the heaviest pan inherits the shared availability")
        #expect(components["alert_fruit-low"]?["availability"] == nil, "an alert inherits the shared availability")
        #expect(
            components["left_weight"]?["availability"]?.array?.compactMap { $0["topic"]?.string }
                == ["plumscale/kitchen/status", "plumscale/kitchen/daemon", "plumscale/kitchen/left/availability"],
            "a pan's entity replaces it with a list that adds the pan's sensor")
        #expect(components["alert_fruit-low"]?["p"]?.string == "binary_sensor", "the alert is a binary_sensor")
    }

    @Test("a removed entity is its component with p alone; the others stay whole")
    func removal() throws {
        let config = try #require(Self.json(removed: ["gone_weight": "sensor", "left_weight": "sensor"]), "not JSON")
        #expect(config["cmps"]?["gone_weight"] == .object(["p": .string("sensor")]), "only the platform")
        #expect(
            config["cmps"]?["left_weight"]?["unique_id"]?.string == "plumscale_kitchen_left_weight",
            "an entity that is there is never sent as removed")
    }

    @Test("each per-entity topic of earlier releases maps to its platform and component key, and no other topic")
    func legacyTopics() {
        for (topic, payload) in Self.discovery.configs(pans: ["left"]) {
            let parsed = Self.discovery.legacyComponent(ofConfig: topic)
            #expect(
                parsed.map { "\($0.platform) plumscale_kitchen_\($0.objectID)" }
                    == payload.defaultEntityID.map { $0.split(separator: ".", maxSplits: 1).joined(separator: " ") },
                "\(topic) parsed as \(String(describing: parsed))")
        }
        #expect(Self.discovery.legacyComponent(ofConfig: "homeassistant/device/plumscale_kitchen/config") == nil)
        #expect(Self.discovery.legacyComponent(ofConfig: "homeassistant/sensor/plumscale_other/x/config") == nil)
        #expect(Self.discovery.legacyComponent(ofConfig: "homeassistant/sensor/plumscale_kitchen/x/state") == nil)
        #expect(HomeAssistantDiscovery.migrateDiscovery == #"{"migrate_discovery":true}"#, "the documented payload")
    }
}
