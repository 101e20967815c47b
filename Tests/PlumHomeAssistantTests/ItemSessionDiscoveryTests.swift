import Foundation
import PlumHomeAssistant
import PlumProtocol
import PlumTestSupport
import Testing

/// Items and sessions in Home Assistant, as payloads: the item event, the session's state, and
/// their entities in the device config (integrations/mqtt: event.mqtt, sensor.mqtt, button.mqtt).
@Suite("items and sessions: the event, the session state and their discovery")
struct ItemSessionDiscoveryTests {
    static let discovery = HomeAssistantDiscoveryTests.discovery

    static func components(sessions: Bool) throws -> [String: JSONValue] {
        let components = discovery.components(pans: ["left", "right"], alerts: [], sessions: sessions)
        let config = discovery.deviceConfig(components: components)
        let reader = try #require(
            DeviceConfigReader(HomeAssistantDiscovery.encode(config), topic: discovery.topics.deviceDiscovery))
        return reader.components
    }

    static func item(_ line: String) throws -> ItemReport {
        let report = try Report.decode(Substring(line))
        if case .item(let item) = report { return item }
        return try #require(nil as ItemReport?, "not an ITEM: \(report)")
    }

    static func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try #require(JSONValue.parse(Array(try JSONEncoder().encode(value))))
    }

    @Test("a placed ITEM is one event: grams on the division's grid, seq, item, gross after, class, flags")
    func placedEvent() throws {
        // 87.3 g at d = 0.1 g is 873 divisions; the event carries what the report says, on its grid.
        let report = try Self.item(
            #"{"class":"ITEM","sensor":"left","seq":3,"item":3,"event":"placed","grams":87.3,"divisions":873,"#
                + #""gross_after":152.2,"division":0.1,"time":1795388111.25,"flags":["stacked"],"#
                + #""weight_class":"large"}"#)
        let event = try Self.json(try #require(ItemEventPayload(report)))
        #expect(event["event_type"]?.string == "placed")
        #expect(event["grams"]?.number == 87.3 && event["gross_after"]?.number == 152.2, "\(event)")
        #expect(event["seq"]?.number == 3 && event["item"]?.number == 3, "\(event)")
        #expect(event["weight_class"]?.string == "large" && event["flags"]?.array == [.string("stacked")], "\(event)")
        #expect(
            event.keys == ["event_type", "grams", "seq", "item", "gross_after", "weight_class", "flags"],
            "every attribute always there, no others: \(event.keys)")
    }

    @Test("a removed ITEM in accumulate: item and class null, not missing; an unknown kind is no event")
    func removedEvent() throws {
        let report = try Self.item(
            #"{"class":"ITEM","sensor":"left","seq":9,"item":null,"event":"removed","grams":4,"divisions":2,"#
                + #""gross_after":0,"division":2,"time":1795388111,"flags":[]}"#)
        let event = try Self.json(try #require(ItemEventPayload(report)))
        #expect(event["event_type"]?.string == "removed" && event["grams"]?.number == 4, "\(event)")
        #expect(event["item"] == .null && event["weight_class"] == .null, "\(event)")
        #expect(event["flags"]?.array?.isEmpty == true, "\(event)")
        var other = report
        other.event = "lifted"
        #expect(ItemEventPayload(other) == nil, "Home Assistant rejects an event type the entity does not declare")
    }

    @Test("the session state: count, total and mean rounded to d (the mean one decimal finer), classes by name")
    func sessionState() throws {
        let summary = SessionSummary(
            name: "crate-7", sensor: "left", started: "2026-11-27T06:00:00Z", division: 0.1, count: 3,
            total: 150.00000000000003, mean: 50.000000000000014, minimum: 40.1, maximum: 59.9,
            classes: [.init(name: "small", count: 1), .init(name: "medium", count: 2)], unclassified: 0)
        let state = try Self.json(SessionStatePayload(summary))
        #expect(state["name"]?.string == "crate-7" && state["running"]?.bool == true, "\(state)")
        #expect(state["count"]?.number == 3 && state["total"]?.number == 150, "\(state)")
        #expect(state["mean"]?.number == 50 && state["min"]?.number == 40.1, "\(state)")
        #expect(state["classes"]?["medium"]?.number == 2 && state["stopped"] == .null, "\(state)")

        var stopped = summary
        stopped.stopped = "2026-11-27T06:10:00Z"
        stopped.mean = 87.26666666
        let after = try Self.json(SessionStatePayload(stopped))
        #expect(after["running"]?.bool == false && after["mean"]?.number == 87.27, "\(after)")

        let none = try Self.json(SessionStatePayload(nil))
        #expect(none["name"]?.string == "none" && none["running"]?.bool == false, "\(none)")
        #expect(none["count"]?.number == 0 && none["total"]?.number == 0 && none["mean"] == .null, "\(none)")
    }

    @Test("with sessions: per pan an item event with placed/removed and a session start button, on its pan's sensor")
    func itemEntity() throws {
        let components = try Self.components(sessions: true)
        for pan in ["left", "right"] {
            let item = try #require(components["\(pan)_item"], "no item entity on \(pan)")
            #expect(item["p"]?.string == "event" && item["name"]?.string == "\(pan) item", "\(item)")
            #expect(
                item["event_types"]?.array == [.string("placed"), .string("removed"), .string("retracted")], "\(item)")
            #expect(item["state_topic"]?.string == "plumscale/kitchen/\(pan)/item", "\(item)")
            #expect(item["default_entity_id"]?.string == "event.plumscale_kitchen_\(pan)_item", "\(item)")
            #expect(
                item["availability"]?.array?.last?["topic"]?.string == "plumscale/kitchen/\(pan)/availability",
                "the item entity follows its pan's sensor: \(item)")
            let start = try #require(components["\(pan)_session_start"], "no session start on \(pan)")
            #expect(start["p"]?.string == "button" && start["name"]?.string == "\(pan) session start", "\(start)")
            #expect(start["command_topic"]?.string == "plumscale/kitchen/\(pan)/session-start/set", "\(start)")
            #expect(start["payload_press"]?.string == "PRESS" && start["retain"]?.bool == false, "\(start)")
            #expect(
                start["availability"]?.array?.last?["topic"]?.string == "plumscale/kitchen/\(pan)/availability",
                "\(start)")
        }
    }

    @Test("with sessions: name, running, count, total and mean on the session topic, and a stop button")
    func sessionEntities() throws {
        let components = try Self.components(sessions: true)
        let expected: [String: (platform: String, template: String?)] = [
            "session": ("sensor", "{{ value_json.name }}"),
            "session_running": ("binary_sensor", "{{ 'ON' if value_json.running else 'OFF' }}"),
            "session_count": ("sensor", "{{ value_json.count }}"),
            "session_total": ("sensor", "{{ value_json.total }}"),
            "session_mean": ("sensor", "{{ value_json.mean }}"),
            "session_stop": ("button", nil)
        ]
        for (key, (platform, template)) in expected {
            let component = try #require(components[key], "no component \(key)")
            #expect(component["p"]?.string == platform, "\(key): \(component)")
            #expect(component["value_template"]?.string == template, "\(key): \(component)")
            // The scale's entities: available while the bridge hears the daemon (the shared list).
            #expect(component["availability"] == nil, "\(key) follows the device's availability: \(component)")
            if platform != "button" {
                #expect(component["state_topic"]?.string == "plumscale/kitchen/session", "\(key): \(component)")
            }
        }
        let count = try #require(components["session_count"])
        #expect(count["state_class"]?.string == "total_increasing" && count["device_class"] == nil, "\(count)")
        for key in ["session_total", "session_mean"] {
            let sensor = try #require(components[key])
            #expect(sensor["device_class"]?.string == "weight" && sensor["unit_of_measurement"]?.string == "g")
        }
        #expect(components["session_total"]?["state_class"]?.string == "total_increasing")
        #expect(components["session_total"]?["suggested_display_precision"]?.number == 1)
        #expect(components["session_mean"]?["state_class"]?.string == "measurement")
        #expect(components["session_mean"]?["suggested_display_precision"]?.number == 2)
        #expect(components["session"]?["json_attributes_topic"]?.string == "plumscale/kitchen/session")
        #expect(components["session_running"]?["device_class"]?.string == "running")
        let stop = try #require(components["session_stop"])
        #expect(stop["command_topic"]?.string == "plumscale/kitchen/session/stop/set", "\(stop)")
        #expect(stop["payload_press"]?.string == "PRESS" && stop["retain"]?.bool == false, "\(stop)")
        let topics = HomeAssistantDiscoveryTests.topics
        #expect(topics.parseSessionCommand("plumscale/kitchen/session/stop/set") == .stop)
        #expect(topics.parseSessionCommand("plumscale/kitchen/left/session-start/set") == .start(panLevel: "left"))
        #expect(topics.parseSessionCommand("plumscale/kitchen/session/tare/set") == nil)
        #expect(topics.parseSessionCommand("plumscale/kitchen/a/b/session-start/set") == nil)
        for topic in ["plumscale/kitchen/session/stop/set", "plumscale/kitchen/left/session-start/set"] {
            #expect(topics.parseCommand(topic) == nil, "no tare or zero: \(topic)")
        }
    }

    @Test("without sessions (a daemon before protocol 1.5) none of these entities, and every other one the same")
    func withoutSessions() throws {
        let with = try Self.components(sessions: true)
        let without = try Self.components(sessions: false)
        let added = Set(with.keys).subtracting(without.keys)
        #expect(
            added == [
                "left_item", "right_item", "left_session_start", "right_session_start", "session", "session_running",
                "session_count", "session_total", "session_mean", "session_stop"
            ], "\(added.sorted())")
        for (key, component) in without { #expect(with[key] == component, "\(key) changed with sessions") }
    }
}
