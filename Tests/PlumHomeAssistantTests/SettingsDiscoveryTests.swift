import PlumHomeAssistant
import PlumProtocol
import PlumTestSupport
import Testing

/// The settings entities' discovery and command topics, worked out from Home Assistant's
/// `number` and `select` platforms (integrations/mqtt): range, step, mode and options, and which
/// topic asks for what.
@Suite("Home Assistant settings entities: numbers and selects, and their command topics")
struct SettingsDiscoveryTests {
    static let identity = try! ScaleIdentity(configured: "kitchen", machineID: nil)
    static let topics = BridgeTopics(prefix: "plumscale", discoveryPrefix: "homeassistant", identity: identity)
    static let discovery = HomeAssistantDiscovery(
        topics: topics, division: DivisionRounding(grams: 0.5), qos: 1, version: "0.1.0")

    static func components(tares: [NamedTare], capacities: [String: Double]) -> [String: JSONValue] {
        let components = discovery.components(
            pans: ["left", "right"], alerts: [alertRule("fruit-low", sensor: "left")], tares: tares,
            capacities: capacities)
        let bytes = HomeAssistantDiscovery.encode(discovery.deviceConfig(components: components))
        return JSONValue.parse(bytes)?["cmps"]?.object ?? [:]
    }

    @Test("a pan's preset tare is a number box from 0 to its capacity in steps of d; an alert's threshold ± capacity")
    func numbers() throws {
        let components = Self.components(tares: [], capacities: ["left": 1000, "right": 385])
        let left = try #require(components["left_preset_tare"])
        #expect(
            left["p"]?.string == "number" && left["mode"]?.string == "box" && left["unit_of_measurement"]?.string == "g"
        )
        #expect(left["min"]?.number == 0 && left["max"]?.number == 1000 && left["step"]?.number == 0.5, "\(left)")
        #expect(left["command_topic"]?.string == "plumscale/kitchen/left/preset-tare/set")
        #expect(left["state_topic"]?.string == "plumscale/kitchen/left/preset-tare")
        #expect(left["unique_id"]?.string == "plumscale_kitchen_left_preset_tare")
        #expect(left["default_entity_id"]?.string == "number.plumscale_kitchen_left_preset_tare")
        let availability = left["availability"]?.array?.compactMap { $0["topic"]?.string } ?? []
        #expect(availability.contains("plumscale/kitchen/left/availability"), "the pan's own availability")
        #expect(components["right_preset_tare"]?["max"]?.number == 385, "each pan its own capacity")

        let threshold = try #require(components["alert_fruit-low_threshold"])
        #expect(threshold["min"]?.number == -1000 && threshold["max"]?.number == 1000, "\(threshold)")
        #expect(threshold["entity_category"]?.string == "config")
        #expect(threshold["command_topic"]?.string == "plumscale/kitchen/alert/fruit-low/threshold/set")
        let hysteresis = try #require(components["alert_fruit-low_hysteresis"])
        #expect(
            hysteresis["min"]?.number == 0
                && hysteresis["state_topic"]?.string == "plumscale/kitchen/alert/fruit-low/hysteresis")
        #expect(components["left_named_tare"] == nil, "no select while the library is empty")
    }

    @Test("before the capacities are known no number is offered; the select lists none and the tares by name")
    func selectAndUnknownCapacity() throws {
        let components = Self.components(
            tares: [NamedTare(name: "bowl", grams: 212), NamedTare(name: "crate 1", grams: 1200)], capacities: [:])
        #expect(components.keys.filter { $0.hasSuffix("preset_tare") || $0.hasPrefix("alert_fruit-low_") }.isEmpty)
        let select = try #require(components["right_named_tare"])
        #expect(select["p"]?.string == "select")
        #expect(select["options"]?.array?.compactMap(\.string) == ["(none)", "bowl", "crate 1"], "\(select)")
        #expect(select["command_topic"]?.string == "plumscale/kitchen/right/named-tare/set")
    }

    @Test(
        "each settings command topic is recognised; buttons, states and other scales' topics are not",
        arguments: [
            ("plumscale/kitchen/left/preset-tare/set", SettingCommand.presetTare(panLevel: "left")),
            ("plumscale/kitchen/left/named-tare/set", .namedTare(panLevel: "left")),
            ("plumscale/kitchen/alert/fruit-low/threshold/set", .alert(level: "fruit-low", .threshold)),
            ("plumscale/kitchen/alert/fruit-low/hysteresis/set", .alert(level: "fruit-low", .hysteresis)),
            ("plumscale/kitchen/left/tare/set", nil),
            ("plumscale/kitchen/left/preset-tare", nil),
            ("plumscale/kitchen/alert/fruit-low/hold/set", nil),
            ("plumscale/other/left/preset-tare/set", nil)
        ] as [(String, SettingCommand?)])
    func commandTopics(topic: String, expected: SettingCommand?) {
        #expect(Self.topics.parseSetting(topic) == expected)
    }
}
